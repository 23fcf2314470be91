use clap::Parser;

/// mimalloc rather than the system's allocator: a battle allocates and
/// frees thousands of small blocks, and batch simulation, live odds and the
/// look-ahead AI run millions of battles (see the README's speed section).
#[global_allocator]
static ALLOCATOR: fray::alloc::Mimalloc = fray::alloc::Mimalloc;

fn main() -> std::process::ExitCode {
    fray::cli::run(fray::cli::Cli::parse())
}
