//! `fray serve-ai`: answer another build's `fray versus`, JSON requests
//! on standard input, one a line, answered on standard output.

use crate::rules::engine::assets_dir;

/// Serve requests until standard input ends.
pub(super) fn run() -> Result<(), String> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    crate::versus::serve(stdin, stdout, &assets_dir())
}
