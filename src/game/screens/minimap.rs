//! The board in miniature, with its pieces: the level as it starts (setup)
//! or the battle as it ended (results).

use bevy_egui::egui;

use crate::rules::map::{Map, Terrain};

/// A combatant on a miniature of the board: where it stands, its
/// faction's colour, and whether it has fallen there.
pub(super) struct Piece {
    pub(super) at: crate::rules::map::Cell,
    pub(super) colour: egui::Color32,
    pub(super) fallen: bool,
}

/// A small picture of the level: terrain, and each piece as a dot in its
/// faction's colour (the fallen faded and crossed out).
pub(super) fn minimap(ui: &mut egui::Ui, map: &Map, pieces: &[Piece]) {
    let cell = (360.0 / map.width().max(map.height()) as f32).clamp(4.0, 18.0);
    let size = egui::vec2(map.width() as f32 * cell, map.height() as f32 * cell);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    for c in map.cells() {
        let min = rect.min + egui::vec2(c.x as f32 * cell, c.y as f32 * cell);
        let r = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
        ground(&painter, r, map.terrain(c), cell);
    }
    // The fallen first, under anyone standing on their cell.
    let mut order: Vec<&Piece> = pieces.iter().collect();
    order.sort_by_key(|p| !p.fallen);
    for p in order {
        let centre =
            rect.min + egui::vec2((p.at.x as f32 + 0.5) * cell, (p.at.y as f32 + 0.5) * cell);
        piece(&painter, p, centre, cell * 0.4);
    }
}

/// One cell's ground, as the board draws it: cover is an object on grass
/// (crates a brown box, trees a dark green fir), rough ground a darker,
/// speckled grass.
fn ground(painter: &egui::Painter, r: egui::Rect, t: Terrain, cell: f32) {
    let grass = egui::Color32::from_rgb(104, 142, 74);
    let col = match t {
        Terrain::Open | Terrain::LowCover | Terrain::HighCover => grass,
        Terrain::Wall => egui::Color32::from_rgb(120, 118, 124),
        Terrain::Difficult => egui::Color32::from_rgb(84, 112, 58),
        Terrain::Water => egui::Color32::from_rgb(52, 104, 170),
        Terrain::HighGround => egui::Color32::from_rgb(170, 156, 104),
        Terrain::Pit => egui::Color32::from_rgb(24, 18, 16),
    };
    painter.rect_filled(r, 0.0, col);
    match t {
        Terrain::LowCover => {
            painter.rect_filled(
                r.shrink(cell * 0.2),
                1.0,
                egui::Color32::from_rgb(150, 98, 48),
            );
        }
        // A tree as a small fir, not a disc: discs are the pieces.
        Terrain::HighCover => {
            let c = r.center();
            let d = cell * 0.38;
            painter.add(egui::Shape::convex_polygon(
                vec![
                    c + egui::vec2(0.0, -d),
                    c + egui::vec2(d * 0.8, d),
                    c + egui::vec2(-d * 0.8, d),
                ],
                egui::Color32::from_rgb(34, 76, 34),
                egui::Stroke::NONE,
            ));
        }
        Terrain::Difficult => {
            painter.circle_filled(
                r.center(),
                cell * 0.12,
                egui::Color32::from_rgb(120, 104, 72),
            );
        }
        _ => {}
    }
}

/// A piece as a disc of radius `r` at `centre`: in its colour, ringed in
/// black; fallen, a faded disc, crossed out.
fn piece(painter: &egui::Painter, p: &Piece, centre: egui::Pos2, r: f32) {
    if p.fallen {
        painter.circle_filled(centre, r, p.colour.gamma_multiply(0.4));
        let d = r * 0.7;
        let black = egui::Stroke::new(1.5, egui::Color32::BLACK);
        painter.line_segment(
            [centre - egui::vec2(d, d), centre + egui::vec2(d, d)],
            black,
        );
        painter.line_segment(
            [centre + egui::vec2(-d, d), centre + egui::vec2(d, -d)],
            black,
        );
    } else {
        painter.circle_filled(centre, r, p.colour);
        painter.circle_stroke(centre, r, egui::Stroke::new(1.0, egui::Color32::BLACK));
    }
}
