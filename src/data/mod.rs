//! Data files: levels (`levels/*.ron`) and rulesets' equipment and bestiaries
//! (`assets/rulesets/<id>/*.ron`), read by one loader whose errors name the
//! file, line and column.

pub mod error;
pub mod level;
