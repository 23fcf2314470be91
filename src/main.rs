use clap::Parser;

fn main() -> std::process::ExitCode {
    fray::cli::run(fray::cli::Cli::parse())
}
