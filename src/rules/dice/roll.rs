//! Rolling an expression with the battle's dice, in the order the module
//! docs give.

use super::{
    Atom, Dice, DiceExpr, DiceRoll, Die, MAX_EXPLOSIONS, RollOptions, Rolled, RolledDice,
    clamp_i32, explodes,
};

impl DiceExpr {
    /// Rolls the expression; see the module docs for the rolling order.
    pub fn roll(&self, dice: &mut Dice, opts: &RollOptions) -> DiceRoll {
        let mut rolled = RolledDice::new();
        let mut dice_sum: i64 = 0;
        let mut flat: i64 = 0;
        for atom in self.atoms(opts.db) {
            match atom {
                Atom::Dice {
                    count,
                    sides,
                    negative,
                } => {
                    let sign = if negative { -1 } else { 1 };
                    for _ in 0..count {
                        let mut result = dice.roll_die(sides);
                        let mut exploded = false;
                        let mut extra = 0;
                        loop {
                            rolled.push(Die {
                                sides,
                                result,
                                exploded,
                                negative,
                            });
                            dice_sum = dice_sum.saturating_add(sign * i64::from(result));
                            if !(explodes(opts.explode_sides, sides)
                                && result == sides
                                && extra < MAX_EXPLOSIONS)
                            {
                                break;
                            }
                            extra += 1;
                            exploded = true;
                            result = dice.roll_die(sides);
                        }
                    }
                }
                Atom::Flat(n) => flat = flat.saturating_add(n),
            }
        }
        DiceRoll {
            expr: Rolled::Expr(self.clone()),
            dice: rolled,
            flat: clamp_i32(flat),
            total: clamp_i32(dice_sum.saturating_add(flat)),
        }
    }
}
