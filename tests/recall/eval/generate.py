#!/usr/bin/env python3
"""Writes the recall evaluation set (tests/recall/eval/*.md and
questions.json): four memories (two team, two user) of hand-written key
entries, near-miss distractors written next to them, and routine entries
from seeded templates; and the questions, each naming the entry that
answers it (or none). Paraphrase questions share no content word with their
answer (check.mjs enforces it); keyword questions name a name, a number or
an id; no-answer questions ask what the memory does not hold. Run it again
only to change the data; the tests read the files it wrote.

    python3 tests/recall/eval/generate.py
"""
import json
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent


def day(rng):
    a, b = date.fromisoformat("2024-06-01"), date.fromisoformat("2025-05-30")
    return (a + timedelta(days=rng.randrange((b - a).days + 1))).isoformat()


def fill(rng, templates, slots, n):
    out, seen = [], set()
    while len(out) < n:
        t = rng.choice(templates)
        text = t.format(**{k: rng.choice(v) for k, v in slots.items()})
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


# Each memory: sections of (key entries), routine templates per section, and
# questions as (kind, question, answer substring or None).
MEMORIES = {
    "team-platform": {
        "scope": "team",
        "sections": {
            "Engineering Decisions": [
                "Services use PostgreSQL 16",
                "Analytics events go to ClickHouse, never to the primary store",
                "Internal APIs speak gRPC; public ones stay JSON over HTTPS",
                "Feature toggles live in Unleash, one project per product",
                "Kubernetes manifests are templated with Helm charts in infra/charts",
                "Secrets come from Vault; nothing sensitive sits in env files",
                "Schema migrations run forward only; rollbacks ship as a new migration",
                "Redis holds cache entries only and may be flushed at any time",
                "Logs are shipped to Loki and kept 30 days",
                "Container images are built by Buildkite and signed with cosign",
            ],
            "Conventions": [
                "Production releases only ship on Tuesdays and Thursdays",
                "Every pull request needs two approvals from code owners",
                "Branch names start with the ticket id, like PLAT-1234-short-title",
                "Commit messages follow Conventional Commits",
                "The weekly engineering meeting is Monday at 10:00 CET in room Fjord",
                "On-call rotates every Wednesday at noon via PagerDuty",
                "Incidents get a written postmortem within five working days",
                "Public endpoints are versioned in the path, /v1 and /v2",
            ],
            "Facts": [
                "The staging cluster is stg-eu-2 in Frankfurt",
                "Terraform state sits in the S3 bucket acme-tfstate with DynamoDB locking",
                "Grafana dashboards are at grafana.acme.internal",
                "The payments team owns service ledger-api",
                "Error budget for checkout is 99.95% monthly availability",
                "Load tests run with k6 against the perf environment every night",
                "Ticket PLAT-4471 tracks the move off Jenkins",
            ],
            "Current Priorities": [
                "Finish the move of CI from Jenkins to Buildkite by July",
                "Cut cloud spend by 15% this quarter",
            ],
        },
        "distractors": {
            "Engineering Decisions": [
                "Billing reports are exported as CSV every night",
                "Search uses OpenSearch with one index per tenant",
                "Mobile clients poll for config every ten minutes",
            ],
            "Conventions": [
                "Design reviews happen in Figma comments, not in meetings",
                "Release notes are written by the author of the change",
                "Standup is async in the #platform-standup channel",
            ],
            "Facts": [
                "The office coffee machine is serviced on Fridays",
                "The data team's warehouse is BigQuery, owned by analytics",
                "Support uses Zendesk for customer tickets",
            ],
        },
        "templates": {
            "Facts": [
                "Dashboard {svc} latency panel was moved to folder {team}",
                "Service {svc} is owned by the {team} team",
                "Runbook for {svc} lives in the wiki under {team}",
            ],
            "Engineering Decisions": [
                "{svc} gets a read replica in {region}",
                "{svc} logs at info level in {region}",
            ],
            "Current Priorities": [
                "Upgrade {svc} to the new base image in {region}",
                "Document the alerts of {svc}",
            ],
        },
        "slots": {
            "svc": ["auth-api", "cart-api", "search-api", "ledger-api", "notify-worker", "image-resizer", "feed-api", "geo-api", "export-worker", "profile-api"],
            "team": ["payments", "growth", "core", "mobile", "data", "identity"],
            "region": ["eu-west-1", "eu-central-1", "us-east-1", "ap-south-1"],
        },
        "routine": 60,
        "questions": [
            ("paraphrase", "which relational database do we run?", "Services use PostgreSQL 16"),
            ("paraphrase", "when is the recurring team sync?", "weekly engineering meeting is Monday"),
            ("paraphrase", "on what weekdays can we deploy to prod?", "Production releases only ship on Tuesdays and Thursdays"),
            ("paraphrase", "where does product telemetry end up?", "Analytics events go to ClickHouse"),
            ("paraphrase", "how do backend services talk to each other?", "Internal APIs speak gRPC"),
            ("paraphrase", "what tool manages flags for gradual rollouts?", "Feature toggles live in Unleash"),
            ("paraphrase", "where should passwords and tokens be kept?", "Secrets come from Vault"),
            ("paraphrase", "can I undo a table change by reverting it?", "Schema migrations run forward only"),
            ("paraphrase", "is it safe to wipe the key-value store?", "Redis holds cache entries only"),
            ("paraphrase", "how long is application output retained?", "Logs are shipped to Loki"),
            ("paraphrase", "how many reviewers must sign off a change?", "Every pull request needs two approvals"),
            ("paraphrase", "who is paged this week and when does that hand over?", "On-call rotates every Wednesday"),
            ("paraphrase", "what do we write after an outage?", "Incidents get a written postmortem"),
            ("paraphrase", "where does our provisioning tool record what it deployed?", "Terraform state sits in the S3 bucket"),
            ("paraphrase", "what uptime target applies to purchasing?", "Error budget for checkout"),
            ("paraphrase", "how do we check the system copes with heavy traffic?", "Load tests run with k6"),
            ("paraphrase", "how should each change recorded in version control be worded?", "Commit messages follow Conventional Commits"),
            ("paraphrase", "how do we reduce the hosting bill?", "Cut cloud spend by 15%"),
            ("keyword", "PLAT-4471", "Ticket PLAT-4471 tracks the move off Jenkins"),
            ("keyword", "stg-eu-2", "The staging cluster is stg-eu-2"),
            ("keyword", "ledger-api owner payments", "The payments team owns service ledger-api"),
            ("keyword", "grafana.acme.internal", "Grafana dashboards are at grafana.acme.internal"),
            ("none", "what is our parental leave policy?", None),
            ("none", "which font does the marketing site use?", None),
            ("none", "who catered the summer party?", None),
        ],
    },
    "team-product": {
        "scope": "team",
        "sections": {
            "Product Decisions": [
                "The free tier allows three projects and one collaborator",
                "Pro costs 12 EUR per seat a month, billed yearly",
                "We sunset the desktop app on 2025-09-30; the web app replaces it",
                "Onboarding skips the tour for people invited by a teammate",
                "Dark mode ships to everyone in the 5.2 release",
                "The mobile app supports offline editing of the last 20 documents",
                "Exports to PDF are watermarked on the free tier",
                "Search results rank recently edited documents higher",
            ],
            "Design Principles": [
                "Buttons use sentence case, never title case",
                "Destructive actions ask for confirmation with the object's name",
                "Empty states always offer one next step",
                "Icons come from the Phosphor set only",
                "Body text is 16 px Inter; headings use Inter Display",
            ],
            "Customer Facts": [
                "Our largest customer is Nordlys Energi with 1,400 seats",
                "Churn is highest in the second month after sign-up",
                "Most trial users come from the template gallery",
                "Schools get 50% off through the education programme",
                "Enterprise contracts include SSO via SAML and SCIM provisioning",
                "The NPS survey goes out every quarter to active admins",
            ],
            "Open Questions": [
                "Should comments notify every watcher or only mentioned people?",
                "Do we localise into Japanese before Korean?",
            ],
        },
        "distractors": {
            "Product Decisions": [
                "The changelog page lists every release with its date",
                "Team plans show usage charts to admins",
                "Document history keeps 90 days on Pro",
            ],
            "Design Principles": [
                "Marketing pages may use illustrations from the brand kit",
                "Charts use the categorical palette from the design tokens",
            ],
            "Customer Facts": [
                "Support tickets peak on Monday mornings",
                "Most feature requests mention integrations with Slack",
            ],
        },
        "templates": {
            "Customer Facts": [
                "Interview with {cust}: they want better {feature}",
                "{cust} asked for a {feature} workshop",
            ],
            "Product Decisions": [
                "Experiment on {feature} ran {n} weeks with no significant result",
                "{feature} copy was rewritten after {cust} feedback",
            ],
            "Open Questions": [
                "How do we measure adoption of {feature}?",
            ],
        },
        "slots": {
            "cust": ["Nordlys Energi", "Brightpath", "Kettle & Co", "Halden Schools", "Mosaic Labs", "Tidewater", "Orbit Health", "Fjellsport"],
            "feature": ["templates", "comments", "permissions", "sharing links", "tables", "reminders", "version history", "imports"],
            "n": ["two", "three", "four", "six"],
        },
        "routine": 55,
        "questions": [
            ("paraphrase", "how much is the paid plan for each user?", "Pro costs 12 EUR per seat"),
            ("paraphrase", "what are the limits without paying?", "The free tier allows three projects"),
            ("paraphrase", "when will the installed client be retired?", "We sunset the desktop app"),
            ("paraphrase", "do newcomers who join through a colleague see the walkthrough?", "Onboarding skips the tour"),
            ("paraphrase", "when does the night theme launch?", "Dark mode ships to everyone"),
            ("paraphrase", "can phones work without a connection?", "The mobile app supports offline editing"),
            ("paraphrase", "are printed files marked for unpaid plans?", "Exports to PDF are watermarked"),
            ("paraphrase", "how should labels on controls be capitalised?", "Buttons use sentence case"),
            ("paraphrase", "what happens before someone deletes something?", "Destructive actions ask for confirmation"),
            ("paraphrase", "what should a blank screen show?", "Empty states always offer one next step"),
            ("paraphrase", "which typeface and size for paragraphs?", "Body text is 16 px Inter"),
            ("paraphrase", "who is our biggest client?", "Our largest customer is Nordlys Energi"),
            ("paraphrase", "when do people tend to cancel?", "Churn is highest in the second month"),
            ("paraphrase", "is there a discount for teachers?", "Schools get 50% off"),
            ("paraphrase", "what single sign-on options do big companies get?", "Enterprise contracts include SSO"),
            ("paraphrase", "how often do we ask for satisfaction scores?", "The NPS survey goes out every quarter"),
            ("paraphrase", "which pictograms may designers use?", "Icons come from the Phosphor set"),
            ("paraphrase", "which translation comes next in Asia?", "Do we localise into Japanese before Korean?"),
            ("keyword", "Nordlys Energi seats", "Our largest customer is Nordlys Energi with 1,400 seats"),
            ("keyword", "Phosphor icons", "Icons come from the Phosphor set only"),
            ("keyword", "5.2 release dark mode", "Dark mode ships to everyone in the 5.2 release"),
            ("none", "what is the office wifi password?", None),
            ("none", "who designed the company logo in 2019?", None),
            ("none", "how many vacation days do interns get?", None),
        ],
    },
    "user-engineer": {
        "scope": "user",
        "sections": {
            "Instructions": [
                "Answer in British English and keep replies short",
                "Show code before the explanation",
                "Never suggest Jest; I use Vitest",
                "Use pnpm in every command, never npm or yarn",
                "Write commit messages in the imperative mood",
            ],
            "Preferences": [
                "Editor is Neovim with the LazyVim setup",
                "Prefers TypeScript strict mode everywhere",
                "Likes tables for comparisons",
                "Dislikes ORMs; writes SQL by hand with sqlc",
                "Terminal is WezTerm with the Catppuccin theme",
            ],
            "Facts": [
                "Lives in Leeds and works remotely for a Berlin startup",
                "Has a daughter called Maya, born in 2021",
                "Drives an electric Kia Niro",
                "Allergic to peanuts",
                "Runs a half marathon every spring",
                "Plays bass in a jazz trio on Thursdays",
                "Their laptop is a 14-inch MacBook Pro M3",
                "Home server is a Raspberry Pi 5 running Home Assistant",
                "Speaks English and some German, learning Portuguese",
            ],
            "Current Projects": [
                "Building a recipe app with SvelteKit and SQLite",
                "Migrating the blog from Jekyll to Astro",
            ],
        },
        "distractors": {
            "Preferences": [
                "Prefers dark themes in every app",
                "Reads documentation on paper when possible",
            ],
            "Facts": [
                "Their partner works as a nurse",
                "Has a cat named Pixel",
                "Their previous job was at a bank in Manchester",
            ],
        },
        "templates": {
            "Facts": [
                "Asked about {topic} on {weekday}",
                "Mentioned a podcast about {topic}",
            ],
            "Current Projects": [
                "Reading a book on {topic}",
                "Trying out {tool} for {topic}",
            ],
        },
        "slots": {
            "topic": ["Rust lifetimes", "CSS grid", "Postgres indexes", "bread baking", "home automation", "chess openings", "cycling routes", "Portuguese verbs", "jazz harmony", "type theory"],
            "weekday": ["Monday", "Tuesday", "Wednesday", "Friday", "Saturday"],
            "tool": ["Deno", "Bun", "Zig", "htmx", "Tailwind", "Obsidian"],
        },
        "routine": 50,
        "questions": [
            ("paraphrase", "what spelling variant should responses follow?", "Answer in British English"),
            ("paraphrase", "should examples come first or the prose?", "Show code before the explanation"),
            ("paraphrase", "which testing framework to recommend?", "Never suggest Jest; I use Vitest"),
            ("paraphrase", "which package manager do they want?", "Use pnpm in every command"),
            ("paraphrase", "what does he write code in?", "Editor is Neovim"),
            ("paraphrase", "how should side-by-side options be presented?", "Likes tables for comparisons"),
            ("paraphrase", "what is his stance on database abstraction libraries?", "Dislikes ORMs"),
            ("paraphrase", "which shell app and colour scheme?", "Terminal is WezTerm"),
            ("paraphrase", "what city is he based in?", "Lives in Leeds"),
            ("paraphrase", "does he have children?", "Has a daughter called Maya"),
            ("paraphrase", "what car does he own?", "Drives an electric Kia Niro"),
            ("paraphrase", "any food he must avoid?", "Allergic to peanuts"),
            ("paraphrase", "what sport does he train for?", "Runs a half marathon"),
            ("paraphrase", "is he musical?", "Plays bass in a jazz trio"),
            ("paraphrase", "what computer does he work on?", "Their laptop is a 14-inch MacBook Pro M3"),
            ("paraphrase", "which tongues does he know?", "Speaks English and some German"),
            ("paraphrase", "what cooking software is he making?", "Building a recipe app"),
            ("paraphrase", "which static site generator is replacing the old one?", "Migrating the blog from Jekyll to Astro"),
            ("keyword", "Raspberry Pi Home Assistant", "Home server is a Raspberry Pi 5 running Home Assistant"),
            ("keyword", "sqlc", "Dislikes ORMs; writes SQL by hand with sqlc"),
            ("keyword", "Maya 2021", "Has a daughter called Maya, born in 2021"),
            ("none", "what is his blood type?", None),
            ("none", "which football club does he support?", None),
            ("none", "what is his favourite film?", None),
        ],
    },
    "user-researcher": {
        "scope": "user",
        "sections": {
            "Instructions": [
                "Cite papers in APA 7th edition",
                "Explain statistics without jargon first, then with it",
                "Always mention the sample size next to any result",
                "Reply in Spanish when the message is in Spanish",
            ],
            "Preferences": [
                "Plots in R with ggplot2 using the viridis palette",
                "Keeps notes in Zotero and Obsidian",
                "Prefers Bayesian models over p-values",
                "Writes papers in LaTeX on Overleaf",
            ],
            "Facts": [
                "PhD student in cognitive psychology at the University of Utrecht",
                "Supervisor is Prof. Anneke de Vries",
                "Thesis topic is working memory in bilingual children",
                "Defence is planned for March 2026",
                "Ethics approval number is ETH-2023-118",
                "The lab's eye tracker is a Tobii Pro Spectrum",
                "Grew up in Valencia, moved to the Netherlands in 2019",
                "Teaches the second-year methods course on Wednesdays",
                "Funding comes from an NWO grant that ends in August 2026",
            ],
            "Current Work": [
                "Recruiting 120 children for study 3 through primary schools",
                "Revising the second paper after reviewer comments from Cognition",
            ],
        },
        "distractors": {
            "Preferences": [
                "Prefers morning meetings",
                "Uses a standing desk at the lab",
            ],
            "Facts": [
                "Office is in the Langeveld building, room 1.12",
                "Their sister is a paediatrician in Madrid",
                "Takes the train from Amersfoort",
            ],
        },
        "templates": {
            "Current Work": [
                "Read {author} on {topic}",
                "Draft section on {topic} for {venue}",
            ],
            "Facts": [
                "Attended a talk by {author} about {topic}",
            ],
        },
        "slots": {
            "author": ["Baddeley", "Bialystok", "Cowan", "Gelman", "McElreath", "Kroll", "Engle", "Oberauer"],
            "topic": ["attention control", "language switching", "span tasks", "multilevel models", "priors", "inhibition", "vocabulary size", "executive function"],
            "venue": ["Cognition", "the thesis", "a lab meeting", "the ESCOP poster", "JEP: General"],
        },
        "routine": 50,
        "questions": [
            ("paraphrase", "which referencing style for bibliographies?", "Cite papers in APA 7th edition"),
            ("paraphrase", "how technical should explanations of numbers be?", "Explain statistics without jargon first"),
            ("paraphrase", "what detail must accompany every finding?", "Always mention the sample size"),
            ("paraphrase", "what charting library and colours?", "Plots in R with ggplot2"),
            ("paraphrase", "which reference manager does she rely on?", "Keeps notes in Zotero"),
            ("paraphrase", "frequentist or another school of inference?", "Prefers Bayesian models"),
            ("paraphrase", "what does she use to typeset manuscripts?", "Writes papers in LaTeX"),
            ("paraphrase", "what is her doctorate about?", "Thesis topic is working memory"),
            ("paraphrase", "who advises her?", "Supervisor is Prof. Anneke de Vries"),
            ("paraphrase", "when will she defend?", "Defence is planned for March 2026"),
            ("paraphrase", "where did she grow up?", "Grew up in Valencia"),
            ("paraphrase", "what lectures does she give?", "Teaches the second-year methods course"),
            ("paraphrase", "when does her money run out?", "Funding comes from an NWO grant"),
            ("paraphrase", "how many kids are being enrolled?", "Recruiting 120 children"),
            ("paraphrase", "which journal is the resubmission for?", "Revising the second paper"),
            ("paraphrase", "which institution is she enrolled at?", "PhD student in cognitive psychology at the University of Utrecht"),
            ("keyword", "ETH-2023-118", "Ethics approval number is ETH-2023-118"),
            ("keyword", "Tobii Pro Spectrum", "The lab's eye tracker is a Tobii Pro Spectrum"),
            ("keyword", "Anneke de Vries", "Supervisor is Prof. Anneke de Vries"),
            ("none", "what is her favourite restaurant?", None),
            ("none", "does she own a bicycle brand she likes?", None),
            ("none", "which programming bootcamp did she attend?", None),
        ],
    },
}


# Written apart from the questions above, and never read by the calibration
# (tests/recall/eval/fit.rs reads questions.json only): heldout.json. Per
# memory: facts replaced by a later entry of the same section (section, old
# date and text, new date and text, a question in other words, the old and
# the new value), paraphrases (no content word shared with the answer),
# keyword questions with inflections and identifiers, and questions the
# memory cannot answer.
HELDOUT = {
    "team-platform": {
        "replaced": [
            ("Facts", "2024-11-12", "The primary database runs on db.m5.large instances", "2025-04-08", "The primary database runs on db.r6g.xlarge instances", "what instance type is the primary database on?"),
            ("Conventions", "2024-09-20", "Code freeze starts on the 20th of each month", "2025-03-14", "Code freeze starts on the 25th of each month", "when does the monthly code freeze begin?"),
            ("Engineering Decisions", "2024-10-02", "The default Node.js runtime is version 18", "2025-02-27", "The default Node.js runtime is version 22", "which node version do services default to?"),
            ("Facts", "2024-12-05", "The incident channel is #inc-platform", "2025-05-02", "The incident channel is #platform-incidents", "which slack channel do we use for incidents?"),
            ("Conventions", "2024-08-30", "Sprint planning happens every other Tuesday", "2025-01-21", "Sprint planning happens every other Thursday", "what day is sprint planning on?"),
            ("Facts", "2025-01-10", "Alertmanager pages the on-call through Opsgenie", "2025-05-20", "Alertmanager pages the on-call through PagerDuty", "which paging tool does alertmanager use?"),
        ],
        "questions": [
            ("paraphrase", "how are our docker artifacts made and verified?", "Container images are built by Buildkite"),
            ("paraphrase", "how do we package what runs on the orchestrator?", "Kubernetes manifests are templated"),
            ("paraphrase", "where do clickstream numbers end up being kept?", "Analytics events go to ClickHouse"),
            ("paraphrase", "how much downtime may the purchase flow have?", "Error budget for checkout"),
            ("paraphrase", "which squad is responsible for the bookkeeping backend?", "The payments team owns service ledger-api"),
            ("paraphrase", "where are metrics charts hosted?", "Grafana dashboards are at grafana.acme.internal"),
            ("paraphrase", "which region hosts pre-production?", "The staging cluster is stg-eu-2"),
            ("paraphrase", "how do we check performance under heavy traffic?", "Load tests run with k6"),
            ("paraphrase", "how much should hosting costs shrink?", "Cut cloud spend by 15%"),
            ("paraphrase", "how do we evolve the outward-facing interface without breaking callers?", "Public endpoints are versioned in the path"),
            ("keyword", "released on tuesday", "Production releases only ship on Tuesdays and Thursdays"),
            ("keyword", "migration rollback", "Schema migrations run forward only; rollbacks ship as a new migration"),
            ("keyword", "postgres version", "Services use PostgreSQL 16"),
            ("keyword", "k8s manifests", "Kubernetes manifests are templated with Helm charts"),
            ("keyword", "acme dashboard", "Grafana dashboards are at grafana.acme.internal"),
            ("keyword", "commit message format", "Commit messages follow Conventional Commits"),
            ("keyword", "approval for pull requests", "Every pull request needs two approvals"),
            ("keyword", "incident postmortems", "Incidents get a written postmortem"),
            ("none", "which catering company runs the cafeteria?", None),
            ("none", "which laptop brand are engineers issued?", None),
        ],
    },
    "team-product": {
        "replaced": [
            ("Product Decisions", "2024-10-15", "The trial lasts 14 days", "2025-03-03", "The trial lasts 30 days", "how long is the free trial?"),
            ("Customer Facts", "2024-11-20", "Support answers within 24 hours on Pro", "2025-04-11", "Support answers within 8 hours on Pro", "how quickly does support respond to pro customers?"),
            ("Product Decisions", "2024-09-09", "Team plans cap file uploads at 100 MB", "2025-02-19", "Team plans cap file uploads at 250 MB", "what is the upload size limit on team plans?"),
            ("Design Principles", "2024-12-02", "The primary brand colour is indigo #4F46E5", "2025-05-06", "The primary brand colour is teal #0D9488", "which primary colour does the brand use?"),
            ("Customer Facts", "2025-01-14", "The product analytics tool is Mixpanel", "2025-04-30", "The product analytics tool is Amplitude", "which analytics tool tracks product usage?"),
            ("Product Decisions", "2024-11-04", "The public API allows 600 requests per minute", "2025-03-25", "The public API allows 1,000 requests per minute", "what is the api rate limit per minute?"),
        ],
        "questions": [
            ("paraphrase", "what does the premium subscription charge for each head?", "Pro costs 12 EUR per seat"),
            ("paraphrase", "which glyph pack do designers draw symbols from?", "Icons come from the Phosphor set"),
            ("paraphrase", "who has the most licences with us?", "Our largest customer is Nordlys Energi"),
            ("paraphrase", "when do most subscribers leave us?", "Churn is highest in the second month"),
            ("paraphrase", "which page brings the most people trying us out?", "Most trial users come from the template gallery"),
            ("paraphrase", "do teaching institutions pay less?", "Schools get 50% off"),
            ("paraphrase", "how do large corporate accounts log in?", "Enterprise contracts include SSO"),
            ("paraphrase", "how are lookup hits ordered?", "Search results rank recently edited documents higher"),
            ("paraphrase", "what should a screen with no content suggest?", "Empty states always offer one next step"),
            ("paraphrase", "how much can people change on their handset while disconnected?", "The mobile app supports offline editing"),
            ("keyword", "watermark pdf exports", "Exports to PDF are watermarked on the free tier"),
            ("keyword", "collaborators on the free tier", "The free tier allows three projects and one collaborator"),
            ("keyword", "quarterly nps surveys", "The NPS survey goes out every quarter to active admins"),
            ("keyword", "sunsetting the desktop app", "We sunset the desktop app on 2025-09-30"),
            ("none", "what was the revenue in 2023?", None),
            ("none", "who is the head of legal?", None),
        ],
    },
    "user-engineer": {
        "replaced": [
            ("Facts", "2024-10-01", "Works from a coworking space in Headingley", "2025-03-10", "Works from a coworking space in Chapel Allerton", "where is their coworking desk?"),
            ("Preferences", "2024-09-15", "Default shell is zsh with oh-my-zsh", "2025-02-02", "Default shell is fish with the starship prompt", "what shell do they use by default?"),
            ("Facts", "2024-12-12", "Their phone is a Pixel 7", "2025-04-22", "Their phone is an iPhone 15", "what phone do they carry?"),
            ("Current Projects", "2024-11-05", "The recipe app deploys to Vercel", "2025-05-01", "The recipe app deploys to Fly.io", "where is the recipe app deployed?"),
            ("Preferences", "2025-01-08", "Preferred font for code is JetBrains Mono", "2025-04-03", "Preferred font for code is Berkeley Mono", "which font do they like for code?"),
            ("Facts", "2024-08-20", "Their gym membership is at PureGym Leeds", "2025-02-14", "Their gym membership is at Virgin Active Leeds", "which gym are they a member of?"),
        ],
        "questions": [
            ("paraphrase", "which runner should example specs rely on?", "Never suggest Jest; I use Vitest"),
            ("paraphrase", "which installer tool should shell snippets call?", "Use pnpm in every command"),
            ("paraphrase", "what grammatical form for version control summaries?", "Write commit messages in the imperative mood"),
            ("paraphrase", "where is home for them?", "Lives in Leeds"),
            ("paraphrase", "what is their child's name?", "Has a daughter called Maya"),
            ("paraphrase", "what vehicle do they own?", "Drives an electric Kia Niro"),
            ("paraphrase", "is there anything they can't eat?", "Allergic to peanuts"),
            ("paraphrase", "what music group are they part of?", "Plays bass in a jazz trio"),
            ("paraphrase", "what machine do they program on?", "Their laptop is a 14-inch MacBook Pro M3"),
            ("paraphrase", "what hardware automates their house?", "Home server is a Raspberry Pi 5"),
            ("keyword", "commits imperative", "Write commit messages in the imperative mood"),
            ("keyword", "running half marathons", "Runs a half marathon every spring"),
            ("keyword", "wezterm catppuccin themes", "Terminal is WezTerm with the Catppuccin theme"),
            ("none", "which football club do they support?", None),
            ("none", "what is their blood type?", None),
        ],
    },
    "user-researcher": {
        "replaced": [
            ("Facts", "2024-10-10", "Second supervisor is Dr. Pieter Jansen", "2025-03-18", "Second supervisor is Dr. Lotte Bakker", "who is her second supervisor?"),
            ("Current Work", "2024-11-25", "Study 3 pilot is scheduled for January", "2025-02-28", "Study 3 pilot is scheduled for April", "when is the pilot of study 3?"),
            ("Preferences", "2024-09-30", "Reference manager export style is BibTeX", "2025-01-30", "Reference manager export style is BibLaTeX", "which export style does the reference manager use?"),
            ("Facts", "2024-12-18", "The lab meeting is on Tuesday mornings", "2025-04-14", "The lab meeting is on Friday mornings", "when is the lab meeting?"),
            ("Facts", "2025-01-06", "Statistics software for the thesis is SPSS", "2025-05-12", "Statistics software for the thesis is R with brms", "which statistics software is the thesis analysed with?"),
            ("Current Work", "2024-10-21", "Conference target this year is CogSci in Rotterdam", "2025-03-05", "Conference target this year is ESCOP in Sheffield", "which conference is she targeting this year?"),
        ],
        "questions": [
            ("paraphrase", "how should references be formatted?", "Cite papers in APA 7th edition"),
            ("paraphrase", "what is the dissertation about?", "Thesis topic is working memory"),
            ("paraphrase", "when is the viva?", "Defence is planned for March 2026"),
            ("paraphrase", "what's the review board reference?", "Ethics approval number is ETH-2023-118"),
            ("paraphrase", "which gaze-recording device do they have?", "The lab's eye tracker is a Tobii Pro Spectrum"),
            ("paraphrase", "what's her hometown?", "Grew up in Valencia"),
            ("paraphrase", "what class does she run midweek?", "Teaches the second-year methods course"),
            ("paraphrase", "when does the money run out?", "Funding comes from an NWO grant"),
            ("paraphrase", "how many kids is she enrolling?", "Recruiting 120 children"),
            ("paraphrase", "which statistical approach does she favour?", "Prefers Bayesian models over p-values"),
            ("paraphrase", "where does she typeset manuscripts?", "Writes papers in LaTeX on Overleaf"),
            ("keyword", "cited papers apa", "Cite papers in APA 7th edition"),
            ("keyword", "recruited children", "Recruiting 120 children for study 3"),
            ("keyword", "revised paper reviewers", "Revising the second paper after reviewer comments"),
            ("keyword", "ggplot viridis palettes", "Plots in R with ggplot2 using the viridis palette"),
            ("none", "does she own a car?", None),
            ("none", "what is her favourite novel?", None),
        ],
    },
}


def main():
    questions = []
    for name, m in MEMORIES.items():
        rng = random.Random(name)
        sections = {}
        for title, keys in m["sections"].items():
            lines = [(day(rng), t) for t in keys]
            lines += [(day(rng), t) for t in m["distractors"].get(title, [])]
            sections[title] = lines
        routine = fill(rng, [(s, t) for s, ts in m["templates"].items() for t in ts] and
                       [t for ts in m["templates"].values() for t in ts], m["slots"], m["routine"])
        by_template = {t: s for s, ts in m["templates"].items() for t in ts}
        for text in routine:
            # The template's section: the first whose templates can give it.
            for t, s in by_template.items():
                head = t.split("{")[0]
                if text.startswith(head) and head:
                    sections[s].append((day(rng), text))
                    break
            else:
                sections[next(iter(m["templates"]))].append((day(rng), text))
        out = []
        replaced = HELDOUT[name]["replaced"]
        for title, lines in sections.items():
            rng.shuffle(lines)
            # Each replaced fact's two entries, apart, at places that take
            # nothing from the seeded sequence above.
            for k, (section, old_day, old, new_day, new, _) in enumerate(replaced):
                if section == title:
                    lines.insert((7 * k + 3) % (len(lines) + 1), (old_day, old))
                    lines.insert((13 * k + 11) % (len(lines) + 1), (new_day, new))
            out.append(f"## {title}\n" + "\n".join(f"- {d}: {t}" for d, t in lines))
        (HERE / f"{name}.md").write_text("\n\n".join(out) + "\n")
        for kind, q, answer in m["questions"]:
            questions.append({"memory": name, "scope": m["scope"], "today": "2025-06-01",
                              "kind": kind, "question": q, "answer": answer})
    (HERE / "questions.json").write_text(json.dumps(questions, indent=1, ensure_ascii=False) + "\n")
    heldout = []
    for name, h in HELDOUT.items():
        base = {"memory": name, "scope": MEMORIES[name]["scope"], "today": "2025-06-01"}
        for _, _, old, _, new, q in h["replaced"]:
            heldout.append({**base, "kind": "replaced", "question": q, "answer": new, "stale": old})
        for kind, q, answer in h["questions"]:
            heldout.append({**base, "kind": kind, "question": q, "answer": answer})
    (HERE / "heldout.json").write_text(json.dumps(heldout, indent=1, ensure_ascii=False) + "\n")


main()
