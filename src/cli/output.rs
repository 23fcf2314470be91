//! What every subcommand prints through: standard output that ends
//! `fray` quietly when its reader has gone, and a report as JSON or text.

/// Write to standard output. When the reader has gone (`fray log … | head`),
/// `fray` ends at once, silently and with success: nothing it could still
/// print would be read.
pub(super) fn out(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut so = std::io::stdout().lock();
    if let Err(e) = so.write_fmt(args).and_then(|()| so.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("fray: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`out`].
macro_rules! say {
    ($($t:tt)*) => { $crate::cli::output::out(format_args!("{}\n", format_args!($($t)*))) };
}

/// `print!` through [`out`].
macro_rules! say_raw {
    ($($t:tt)*) => { $crate::cli::output::out(format_args!($($t)*)) };
}

/// A command's report: as JSON, or as the text `text` writes of it.
pub(super) fn print_report<R: serde::Serialize>(
    report: &R,
    json: bool,
    text: impl FnOnce(&R) -> String,
) -> Result<(), String> {
    if json {
        say!(
            "{}",
            serde_json::to_string_pretty(report).map_err(|e| e.to_string())?
        );
    } else {
        say_raw!("{}", text(report));
    }
    Ok(())
}
