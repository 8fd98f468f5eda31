//! The npm bin (pkg-template/cli.js) prints each command's `--help` from
//! pkg-template/cli-help.json, which is this command's, generated here:
//! `MEMDOC_WRITE_HELP=1 cargo test -p memdoc-cli` writes it, and this test
//! fails while it differs from the clap definitions (args.rs).

use std::fmt::Write as _;

use clap::CommandFactory;

/// Each command's path (`""`, `check`, `hub team create`, …) and its
/// `--help`, depth first.
fn helps(command: &mut clap::Command, path: &str, out: &mut Vec<(String, String)>) {
    out.push((path.to_owned(), command.render_help().to_string()));
    for sub in command.get_subcommands_mut() {
        let name = sub.get_name().to_owned();
        if name != "help" {
            let path = if path.is_empty() {
                name
            } else {
                format!("{path} {name}")
            };
            helps(sub, &path, out);
        }
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn the_npm_bins_help_is_generated_from_the_clap_definitions() {
    let mut command = crate::args::Cli::command();
    command.build();
    let mut entries = Vec::new();
    helps(&mut command, "", &mut entries);
    let body: Vec<String> = entries
        .iter()
        .map(|(path, help)| format!("  {}: {}", json_string(path), json_string(help)))
        .collect();
    let generated = format!("{{\n{}\n}}\n", body.join(",\n"));
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../pkg-template/cli-help.json");
    if std::env::var_os("MEMDOC_WRITE_HELP").is_some() {
        std::fs::write(file, &generated).expect("should write pkg-template/cli-help.json");
    }
    let written = std::fs::read_to_string(file).unwrap_or_default();
    assert!(
        written == generated,
        "pkg-template/cli-help.json differs from the clap definitions: run `MEMDOC_WRITE_HELP=1 cargo test -p memdoc-cli`"
    );
}
