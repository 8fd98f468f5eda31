//! The agents' commands of the command line's engine natively (docs/CLI.md,
//! "memdoc init", "Agent hooks", "memdoc import"): the cases the front ends'
//! tests (test-js/cli-agents.test.mjs, in real repositories) do not reach.
#![cfg(not(target_arch = "wasm32"))]

use memdoc_cli::exit;
use memdoc_cli::hook::{self, Input};
use memdoc_cli::import::import;
use memdoc_cli::init::{init, Found};

fn found<'a>(
    memory: Option<&'a str>,
    precommit: Option<&'a str>,
    others: &'a [&'a str],
) -> Found<'a> {
    Found {
        file: "MEMORY.md",
        memory,
        attributes: None,
        precommit,
        driver: None,
        others,
    }
}

#[test]
fn init_leaves_a_precommit_config_it_cannot_extend() {
    let config = "repos:\n- repo: local\n  hooks: []\nci:\n  autofix_prs: false\n";
    let plan = init(&found(None, Some(config), &[]), false);
    let paths: Vec<&str> = plan.writes.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        ["MEMORY.md", ".gitattributes"],
        "should not write the config"
    );
    assert!(
        plan.outcome
            .stdout
            .contains(".pre-commit-config.yaml: left as it is"),
        "should say so: {}",
        plan.outcome.stdout
    );
    assert!(
        plan.outcome
            .stdout
            .contains("  - repo: https://github.com/memdoc/memdoc\n"),
        "should print the lines to add"
    );
}

#[test]
fn init_dry_run_writes_and_sets_nothing() {
    let plan = init(&found(None, None, &["CLAUDE.md"]), true);
    assert!(
        plan.writes.is_empty() && plan.config.is_empty(),
        "should plan nothing"
    );
    assert_eq!(plan.outcome.exit, exit::OK);
    assert!(
        plan.outcome.stdout.contains("memdoc init --file CLAUDE.md"),
        "should name the agent's memory file: {}",
        plan.outcome.stdout
    );
}

#[test]
fn init_refuses_a_name_gitattributes_cannot_hold() {
    let mut f = found(None, None, &[]);
    f.file = "TEAM MEMORY.md";
    let plan = init(&f, false);
    assert_eq!(plan.outcome.exit, exit::USAGE);
    assert!(plan.writes.is_empty() && plan.config.is_empty());
}

#[test]
fn a_proposal_is_the_fenced_block_or_the_whole_plain_text() {
    let reply = "Done.\n```memdoc\n## Decisions\n- Use Rust\nsome prose\n- 2025-03-01: Dated\n```\nAfter.\n";
    let input = hook::input(&format!(
        "{{\"last_assistant_message\": {:?}, \"transcript_path\": \"/nowhere\"}}",
        reply
    ));
    assert_eq!(
        input.transcript, None,
        "a reply is read, not the transcript"
    );
    let (doc, skipped) = hook::proposal(&input, None, "2025-06-01");
    assert_eq!(
        doc,
        "## Decisions\n- 2025-06-01: Use Rust\n- 2025-03-01: Dated\n"
    );
    assert_eq!(skipped, ["some prose"]);

    let plain = hook::input("- Cache keys carry the schema version\n");
    assert!(plain.plain);
    let (doc, skipped) = hook::proposal(&plain, None, "2025-06-01");
    assert_eq!(
        doc,
        "## Notes\n- 2025-06-01: Cache keys carry the schema version\n"
    );
    assert!(skipped.is_empty());

    let payload = hook::input("{\"last_assistant_message\": \"No proposal here.\"}");
    assert_eq!(
        hook::proposal(&payload, None, "2025-06-01"),
        (String::new(), Vec::new())
    );
}

#[test]
fn a_transcript_gives_every_proposal_of_the_session() {
    let input = Input {
        texts: Vec::new(),
        plain: false,
        transcript: Some("t.jsonl".to_owned()),
    };
    let transcript = concat!(
        "{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"```memdoc\\n- One\\n```\"}]}}\n",
        "not json ```memdoc\n",
        "{\"message\":{\"content\":\"```memdoc\\n## Conventions\\n- Two\\n```\"}}\n",
    );
    let (doc, _) = hook::proposal(&input, Some(transcript), "2025-06-01");
    assert_eq!(
        doc,
        "## Notes\n- 2025-06-01: One\n\n## Conventions\n- 2025-06-01: Two\n"
    );
}

#[test]
fn an_entry_held_in_any_section_is_not_added_again() {
    let current = "## Decisions\n- 2025-01-01: Use Rust\n";
    let proposed = "## Notes\n- 2025-06-01: Use Rust\n";
    assert_eq!(hook::added("M.md", current, proposed), Ok(None));
    let proposed = "## Notes\n- 2025-06-01: Use Rust\n- 2025-06-01: Use Deno\n";
    assert_eq!(
        hook::added("M.md", current, proposed),
        Ok(Some(
            "## Decisions\n- 2025-01-01: Use Rust\n\n## Notes\n- 2025-06-01: Use Deno".to_owned()
        ))
    );
}

#[test]
fn mem0_reads_an_export_with_fractional_numbers() {
    let export = r#"[{"memory": "Likes \"short\" reviews 0.5", "score": 0.93, "created_at": "2025-02-11T09:30:00Z", "ratio": -1.5e-3}]"#;
    let imported = import("mem0", &[("e.json", export)], "2025-06-01").expect("a kind");
    assert_eq!(
        imported.content,
        "## Memories\n- 2025-02-11: Likes \"short\" reviews 0.5"
    );
    assert_eq!(
        imported.unmapped,
        ["e.json:1: the fields score, ratio of its memories"]
    );
}
