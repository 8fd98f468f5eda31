"""The relevance suite's memories and queries, which generate.py writes as
relevance/*.md and relevance/queries.json: per memory, hand-written key
items (the ones queries expect), the seeded templates of the routine entries
mixed with them, and the queries with the items they should recall.
"""

# ---------------------------------------------------------------- team-platform
PLATFORM = dict(
    name="team-platform",
    scope="team",
    today="2025-06-02",
    sections={
        "Architecture Decisions": [
            "2024-04-11: Billing and invoicing move from MySQL to Postgres 16; the migration owner is Priya",
            "2024-06-03: Internal services talk gRPC; only the public API stays REST with OpenAPI 3.1",
            "2024-09-19: Kafka replaces RabbitMQ for the order events stream; retention is 7 days",
            "2025-01-14: Feature flags live in Unleash, self-hosted; no more flags in environment variables",
            "2025-02-27: Redis is a cache only; nothing that cannot be rebuilt may be stored in it",
            "2025-04-08: New services are written in Go 1.22 unless a team lead signs off on something else",
        ],
        "Engineering Conventions": [
            "2024-05-02: Every pull request needs one approving review and green CI before merge",
            "2024-07-15: Database migrations are forward-only and must run in under 30 seconds on production data",
            "2024-10-01: Commit messages follow Conventional Commits; the changelog is generated from them",
            "2025-03-10: Secrets come from Vault via the sidecar; never commit .env files",
            "2025-03-21: Log lines are JSON with trace_id and span_id so Grafana Tempo can link them",
        ],
        "Facts": [
            "2024-03-18: Production runs on three EKS clusters in eu-west-1, eu-central-1 and us-east-1",
            "2024-08-22: The on-call rotation is weekly and hands over on Mondays at 10:00 CET via PagerDuty",
            "2024-12-05: The staging database is refreshed from an anonymized production snapshot every Sunday night",
            "2025-02-03: Terraform state is in the S3 bucket platform-tfstate with DynamoDB locking",
            "2025-05-12: The CI runners are self-hosted on Graviton instances; a full pipeline takes about 14 minutes",
        ],
        "Incidents": [
            "2024-11-27: Black Friday checkout outage, 42 minutes: the connection pool to Postgres was exhausted; pgbouncer now fronts it",
            "2025-01-30: A TLS certificate on the public API expired; cert-manager now renews 30 days before expiry",
            "2025-04-17: Kafka consumer lag reached two hours after a bad deploy of the invoice worker; rollback took 9 minutes",
        ],
        "Current Priorities": [
            "2025-05-06: Cut the AWS bill by 20% this quarter, starting with idle RDS replicas",
            "2025-05-20: Finish SOC 2 Type II evidence collection before the July audit window",
        ],
        "Open Questions": [
            "2025-05-15: Should we adopt OpenTelemetry collectors per node or per cluster?",
            "2025-05-27: Is Backstage worth running for the service catalog, or is a wiki page enough?",
        ],
    },
    filler={
        "Engineering Conventions": (
            ["{team} agreed to {practice}", "Reminder from {person}: {practice}", "{person} proposed that {team} {practice}"],
            {
                "team": ["The payments squad", "The search squad", "The platform team", "The mobile backend team", "Data engineering"],
                "person": ["Priya", "Jonas", "Mei", "Carlos", "Aisha", "Tomás", "Lena"],
                "practice": [
                    "pair on every production hotfix", "tag Docker images with the git SHA", "keep service READMEs up to date",
                    "write an ADR for any new dependency", "run load tests before raising rate limits", "delete feature branches after merge",
                    "document every cron job in the runbook", "add dashboards before launching a service", "rotate API keys every 90 days",
                    "keep Helm charts in the service repository", "review Dependabot updates weekly", "limit pods to 2 GiB memory by default",
                ],
            },
            45,
        ),
        "Facts": (
            ["{service} is owned by {team} and deployed {cadence}", "{service} exposes metrics on port {port}", "{service} depends on {dep}"],
            {
                "service": ["checkout-api", "search-indexer", "invoice-worker", "notification-service", "auth-gateway", "catalog-sync", "media-resizer", "ledger"],
                "team": ["payments", "search", "platform", "growth", "identity"],
                "cadence": ["daily", "twice a week", "on every merge", "weekly on Thursdays"],
                "port": ["9090", "9100", "8081", "9464"],
                "dep": ["Elasticsearch 8", "the S3 media bucket", "Stripe webhooks", "the Keycloak realm", "SendGrid", "the ledger service"],
            },
            60,
        ),
        "Incidents": (
            ["Minor incident: {service} {problem}; fixed by {fix}", "Postmortem scheduled for {service} after {problem}"],
            {
                "service": ["checkout-api", "search-indexer", "notification-service", "auth-gateway", "media-resizer"],
                "problem": ["returned 502s for six minutes", "ran out of disk", "leaked file descriptors", "hit a DNS timeout", "slowed down after a config change"],
                "fix": ["a restart", "raising the limit", "reverting the deploy", "adding a retry", "scaling out"],
            },
            30,
        ),
    },
    queries=[
        {"query": "which database does billing use", "expected": ["Billing and invoicing move from MySQL to Postgres 16"]},
        {"query": "how do internal services communicate, gRPC or REST?", "expected": ["Internal services talk gRPC"]},
        {"query": "what happened on Black Friday", "expected": ["Black Friday checkout outage"]},
        {"query": "where are feature flags managed", "expected": ["Feature flags live in Unleash"]},
        {"query": "when is the on-call handover", "expected": ["on-call rotation is weekly"]},
        {"query": "rules for database migrations", "expected": ["Database migrations are forward-only"]},
        {"query": "where is terraform state stored", "expected": ["Terraform state is in the S3 bucket"]},
        {"query": "what can we store in redis", "expected": ["Redis is a cache only"]},
        {"query": "expired certificate incident", "expected": ["A TLS certificate on the public API expired"]},
        {"query": "kafka retention and consumer lag", "expected": ["Kafka replaces RabbitMQ", "Kafka consumer lag reached two hours"]},
        {"query": "how do we handle secrets", "expected": ["Secrets come from Vault via the sidecar"]},
        {"query": "cost reduction priorities for AWS", "expected": ["Cut the AWS bill by 20%"]},
        {"query": "what language should a new service be written in", "expected": ["New services are written in Go 1.22"]},
        {"query": "how long does the CI pipeline take", "expected": ["a full pipeline takes about 14 minutes"]},
    ],
    seed=11,
)

# ---------------------------------------------------------------- team-mobile
MOBILE = dict(
    name="team-mobile",
    scope="team",
    today="2025-06-02",
    sections={
        "Product Decisions": [
            "2024-05-14: Onboarding is three screens at most; account creation is deferred until the first saved recipe",
            "2024-08-30: Dark mode ships as a system-following default with a manual override in Settings",
            "2024-11-12: The free tier keeps 25 saved recipes; Premium is unlimited at 4.99 EUR a month",
            "2025-02-18: Offline mode caches the last 50 opened recipes with their images",
            "2025-04-02: Push notifications are opt-in after the second cooking session, never on first launch",
        ],
        "Design Conventions": [
            "2024-06-10: Primary buttons use the tomato red token color.action.primary; never hard-code hex values",
            "2024-09-05: Minimum tap target is 44 by 44 points on iOS and 48 dp on Android",
            "2025-01-22: Empty states always show an illustration and one clear next action",
            "2025-03-28: All copy goes through Lokalise; English and German are required before release",
        ],
        "Facts": [
            "2024-04-02: The app is built with React Native 0.74 and Expo; the web companion uses Next.js",
            "2024-07-19: Crash-free sessions were 99.2% on iOS and 98.7% on Android in the June release",
            "2024-10-24: App Store review took 31 hours on average last quarter; Google Play took 6",
            "2025-01-08: Analytics events go to Amplitude; the event naming scheme is object_action, like recipe_saved",
            "2025-05-02: Monthly active users reached 182,000, 61% of them on iOS",
        ],
        "User Research": [
            "2024-12-03: Interviewees found the shopping list hard to find behind the profile tab",
            "2025-03-11: Users with allergies want ingredient filters that exclude nuts and gluten",
            "2025-05-21: Testers liked the step-by-step cooking mode but asked for a keep-screen-awake toggle",
        ],
        "Current Priorities": [
            "2025-05-13: Ship the meal planner beta to 5% of Android users by June 20",
            "2025-05-26: Reduce cold start time below two seconds on mid-range Android phones",
        ],
        "Open Questions": [
            "2025-05-19: Do we localize into French or Spanish next?",
        ],
    },
    filler={
        "Product Decisions": (
            ["{feature}: {decision}", "Decided in the {meeting}: {feature} {decision2}"],
            {
                "feature": ["Recipe cards", "The search bar", "Ratings", "The timer", "Sharing", "Collections", "The grocery list", "Comments"],
                "decision": ["keep the current layout for now", "move to the bottom sheet pattern", "drop the animation on low-end devices", "show a skeleton while loading", "hide behind a feature flag until QA signs off"],
                "meeting": ["product review", "design critique", "sprint planning", "roadmap sync"],
                "decision2": ["waits for the next quarter", "gets an A/B test first", "is limited to Premium users", "needs legal review"],
            },
            50,
        ),
        "User Research": (
            ["Session with {who}: {finding}", "Survey of {n} users: {finding}"],
            {
                "who": ["a student in Berlin", "a parent of three", "a retired chef", "a busy nurse", "a vegan couple", "a fitness coach"],
                "n": ["120", "340", "85", "410"],
                "finding": ["prefers photos over videos", "cooks mostly on weekends", "wants smaller portions", "uses the app on a tablet in the kitchen", "skips the intro screens", "shares recipes with family by message"],
            },
            40,
        ),
        "Facts": (
            ["Release {ver} went out on {platform} with {note}", "{platform} build {ver} had {note}"],
            {
                "ver": ["3.4.0", "3.4.1", "3.5.0", "3.6.0", "3.6.2", "3.7.0", "3.8.0"],
                "platform": ["iOS", "Android", "both platforms"],
                "note": ["minor bug fixes", "a new icon set", "faster image loading", "a fix for the login loop", "updated translations"],
            },
            40,
        ),
    },
    queries=[
        {"query": "how much does premium cost", "expected": ["Premium is unlimited at 4.99 EUR"]},
        {"query": "when do we ask for push notification permission", "expected": ["Push notifications are opt-in"]},
        {"query": "what framework is the app built with", "expected": ["React Native 0.74 and Expo"]},
        {"query": "minimum tap target size", "expected": ["Minimum tap target is 44 by 44"]},
        {"query": "what did users with allergies ask for", "expected": ["ingredient filters that exclude nuts and gluten"]},
        {"query": "how many monthly active users do we have", "expected": ["Monthly active users reached 182,000"]},
        {"query": "analytics event naming", "expected": ["event naming scheme is object_action"]},
        {"query": "offline mode caching", "expected": ["Offline mode caches the last 50"]},
        {"query": "which languages are required for copy", "expected": ["English and German are required"]},
        {"query": "dark mode behaviour", "expected": ["Dark mode ships as a system-following default"]},
        {"query": "app store review time", "expected": ["App Store review took 31 hours"]},
        {"query": "next language to translate the app into", "expected": ["Do we localize into French or Spanish next?"]},
    ],
    seed=22,
)

# ---------------------------------------------------------------- user-developer
DEVELOPER = dict(
    name="user-developer",
    scope="user",
    today="2025-06-02",
    sections={
        "Preferences": [
            "2024-04-20: Prefers TypeScript with strict mode and no default exports",
            "2024-06-11: Wants answers short, with code first and the explanation after",
            "2024-09-02: Uses Neovim with LazyVim; do not suggest VS Code extensions",
            "2025-01-17: Prefers pnpm over npm and Vitest over Jest",
            "2025-03-05: Likes tables for comparisons instead of long bullet lists",
        ],
        "Instructions": [
            "2024-05-08: Always mention when a suggestion needs a major version upgrade",
            "2024-12-12: Never run destructive git commands like reset --hard without asking first",
            "2025-02-21: Write commit messages in English, imperative mood, under 72 characters",
        ],
        "Facts": [
            "2024-03-30: Works as a senior backend engineer at a logistics startup in Rotterdam",
            "2024-07-07: Their side project is a Rust CLI called tidepool that syncs Markdown notes to S3",
            "2024-10-15: Their laptop is a MacBook Pro M3 with 36 GB of memory",
            "2025-01-29: Has a cat named Miso who is allergic to chicken",
            "2025-04-23: Is preparing a conference talk about Postgres row-level security for PGConf.EU",
        ],
        "Projects": [
            "2024-11-04: The company's route optimizer is a Python service using OR-Tools; it times out above 400 stops",
            "2025-02-10: Migrating the shipment tracking API from Express to Fastify; halfway done",
            "2025-05-16: Evaluating Temporal for long-running delivery workflows versus plain SQS queues",
        ],
    },
    filler={
        "Projects": (
            ["Worked on {thing} and {outcome}", "Asked about {thing}; {outcome}", "Debugged {thing}: {outcome}"],
            {
                "thing": ["the flaky integration tests", "a memory leak in the webhook handler", "slow Docker builds", "the GraphQL schema", "timezone bugs in delivery slots",
                          "the Kubernetes liveness probes", "a race in the label printer queue", "the CSV export", "SSO with Azure AD", "the rate limiter"],
                "outcome": ["the fix was merged", "it is still open", "it needs a follow-up next sprint", "the root cause was a missing index", "they chose a simpler approach",
                            "it turned out to be a config typo", "they wrote a regression test"],
            },
            70,
        ),
        "Preferences": (
            ["Liked the suggestion to {x}", "Did not like {y}"],
            {
                "x": ["use zod for validation", "split the module into smaller files", "add a Makefile target", "use ripgrep in scripts", "use structured logging", "prefer composition over inheritance"],
                "y": ["emoji in code comments", "overly long explanations", "suggestions to rewrite everything", "auto-generated docs without examples", "magic numbers"],
            },
            10,
        ),
        "Facts": (
            ["Mentioned a trip to {city} in {m}", "Mentioned reading {book}", "Mentioned a {event} in {m}"],
            {"city": ["Lisbon", "Oslo", "Kyoto", "Porto"], "m": ["March", "May", "September", "November"],
             "book": ["Designing Data-Intensive Applications", "The Pragmatic Programmer", "Crafting Interpreters"],
             "event": ["dentist appointment", "10k run", "sourdough workshop", "family visit"]},
            15,
        ),
    },
    queries=[
        {"query": "which package manager and test runner should I use", "expected": ["Prefers pnpm over npm and Vitest over Jest"]},
        {"query": "what editor do they use", "expected": ["Uses Neovim with LazyVim"]},
        {"query": "what is their side project", "expected": ["Rust CLI called tidepool"]},
        {"query": "cat allergy", "expected": ["cat named Miso who is allergic to chicken"]},
        {"query": "conference talk topic", "expected": ["conference talk about Postgres row-level security"]},
        {"query": "commit message style", "expected": ["Write commit messages in English"]},
        {"query": "git reset hard", "expected": ["Never run destructive git commands"]},
        {"query": "route optimizer timeout", "expected": ["route optimizer is a Python service using OR-Tools"]},
        {"query": "Temporal or SQS for delivery workflows", "expected": ["Evaluating Temporal for long-running delivery workflows"]},
        {"query": "how should answers be formatted", "expected": ["Wants answers short, with code first", "Likes tables for comparisons"]},
        {"query": "what laptop do they have", "expected": ["MacBook Pro M3"]},
    ],
    seed=33,
)

# ---------------------------------------------------------------- user-researcher
RESEARCHER = dict(
    name="user-researcher",
    scope="user",
    today="2025-06-02",
    sections={
        "Instructions": [
            "2024-04-03: Cite papers in APA 7 style with DOIs when available",
            "2024-10-09: When summarizing a paper, list the sample size and the effect size first",
            "2025-03-19: Answer in British English; they are writing for a UK journal",
        ],
        "Preferences": [
            "2024-06-25: Prefers R with the tidyverse over Python for statistics",
            "2025-01-06: Likes figures made with ggplot2 using the viridis palette",
        ],
        "Facts": [
            "2024-03-12: Is a third-year PhD student in cognitive psychology at the University of Edinburgh",
            "2024-05-29: Their thesis studies sleep deprivation and working memory in shift workers",
            "2024-09-17: Supervisor is Professor Ana Costa; they meet every second Thursday",
            "2024-12-20: The main experiment has 96 participants and uses an n-back task",
            "2025-02-14: The ethics approval reference is PSY-2024-118 and expires in March 2026",
            "2025-04-30: Thesis submission deadline is 30 September 2025",
        ],
        "Writing": [
            "2025-01-27: Chapter 2, the literature review, is drafted at 11,000 words and needs cutting to 9,000",
            "2025-03-08: Reviewer 2 asked for a mixed-effects model with random slopes for participants",
            "2025-05-09: The discussion chapter should mention the caffeine confound raised at the lab meeting",
        ],
        "Current Priorities": [
            "2025-05-22: Finish the preregistration for the follow-up study on OSF",
            "2025-05-30: Prepare the poster for the Psychonomic Society meeting in November",
        ],
    },
    filler={
        "Writing": (
            ["Read {paper}; {note}", "Notes on {paper}: {note}", "Added {paper} to the {chapter} chapter"],
            {
                "paper": ["Walker 2017", "Lim and Dinges 2010", "Baddeley 2000", "Cowan 2001", "Killgore 2010", "Van Dongen 2003", "Oberauer 2016", "Frenda 2016",
                          "Alhola 2007", "Kahneman 2011", "Lo 2012", "Tucker 2010"],
                "note": ["useful for the introduction", "the sample was small", "uses a different memory task", "replication failed later", "good meta-analysis", "relevant to shift work"],
                "chapter": ["methods", "introduction", "discussion", "literature review"],
            },
            80,
        ),
        "Facts": (
            ["Lab meeting on {d}: {topic}", "Seminar by {who} about {topic}"],
            {
                "d": ["Monday", "Wednesday", "Friday"],
                "who": ["a visiting postdoc", "Dr Patel", "the stats support team", "a clinical colleague"],
                "topic": ["Bayesian estimation", "eye tracking pilots", "open science badges", "power analysis", "online data collection", "circadian rhythms"],
            },
            30,
        ),
    },
    queries=[
        {"query": "citation style", "expected": ["Cite papers in APA 7 style"]},
        {"query": "when is the thesis due", "expected": ["Thesis submission deadline is 30 September 2025"]},
        {"query": "who is the supervisor", "expected": ["Supervisor is Professor Ana Costa"]},
        {"query": "how many participants in the main experiment", "expected": ["The main experiment has 96 participants"]},
        {"query": "ethics approval reference", "expected": ["The ethics approval reference is PSY-2024-118"]},
        {"query": "what did reviewer 2 ask for", "expected": ["Reviewer 2 asked for a mixed-effects model"]},
        {"query": "R or Python for statistics", "expected": ["Prefers R with the tidyverse"]},
        {"query": "literature review word count", "expected": ["the literature review, is drafted at 11,000 words"]},
        {"query": "caffeine confound", "expected": ["mention the caffeine confound"]},
        {"query": "what is the thesis about", "expected": ["Their thesis studies sleep deprivation and working memory"]},
        {"query": "plotting colours", "expected": ["ggplot2 using the viridis palette"]},
    ],
    seed=44,
)

# ---------------------------------------------------------------- team-support
SUPPORT = dict(
    name="team-support",
    scope="team",
    today="2025-06-02",
    sections={
        "Support Decisions": [
            "2024-04-16: Refunds up to 50 EUR can be approved by any agent; above that a team lead must approve",
            "2024-08-08: First response target is 2 hours on business days and 8 hours on weekends",
            "2025-01-20: Chargebacks are escalated to the finance queue in Zendesk, never handled by agents",
            "2025-03-31: Enterprise customers get a named account manager and a shared Slack channel",
        ],
        "Conventions": [
            "2024-05-21: Tag every ticket with product area and root cause before closing it",
            "2024-11-18: Macros are reviewed quarterly; the owner of the macro library is Fatima",
            "2025-02-06: Never ask customers for full card numbers; use the last four digits and the order id",
        ],
        "Facts": [
            "2024-03-25: Support hours are 08:00 to 20:00 CET on weekdays and 10:00 to 16:00 on weekends",
            "2024-09-30: The help center runs on Zendesk Guide; articles are written in English, German and Dutch",
            "2025-01-13: Customer satisfaction was 91% in Q4 2024, up from 87%",
            "2025-04-14: The most common ticket reason in April was delayed deliveries from the Venlo warehouse",
        ],
        "Known Issues": [
            "2025-04-28: Password reset emails land in spam for Outlook.com users; workaround is the magic link login",
            "2025-05-23: The iOS app shows the wrong currency for Swiss customers; fix planned for release 3.8",
        ],
        "Current Priorities": [
            "2025-05-12: Hire two Dutch-speaking agents before the summer peak",
            "2025-05-28: Cut the backlog of open tickets below 300",
        ],
    },
    filler={
        "Known Issues": (
            ["{area}: {issue} ({status})"],
            {
                "area": ["Checkout", "Login", "Invoices", "Tracking page", "Mobile app", "Newsletter", "Gift cards", "Returns portal"],
                "issue": ["a button does not respond on Safari", "slow page loads in the evening", "a typo in the German text", "duplicate emails", "a timeout for large orders",
                          "wrong totals after a voucher", "missing translations", "a broken link in the footer"],
                "status": ["fixed", "open", "waiting for engineering", "workaround documented", "cannot reproduce"],
            },
            60,
        ),
        "Facts": (
            ["Weekly report: {metric} was {value}", "{agent} handled {n} tickets this week"],
            {
                "metric": ["median first response", "backlog size", "reopen rate", "CSAT", "tickets per agent"],
                "value": ["lower than last week", "stable", "higher than target", "the best this quarter", "affected by the holiday"],
                "agent": ["Fatima", "Lucas", "Sanne", "Omar", "Julia", "Noah"],
                "n": ["140", "95", "210", "180", "120"],
            },
            45,
        ),
        "Conventions": (
            ["Reminder: {rule}"],
            {"rule": ["use the returns macro for damaged goods", "link the help center article in every reply", "write in the customer's language",
                      "merge duplicate tickets before replying", "add an internal note when escalating", "close solved tickets after 48 hours",
                      "check the order history first", "never promise delivery dates", "use the customer's first name", "keep replies under 150 words"]},
            10,
        ),
    },
    queries=[
        {"query": "who can approve a refund of 80 euros", "expected": ["Refunds up to 50 EUR can be approved by any agent"]},
        {"query": "first response time target", "expected": ["First response target is 2 hours"]},
        {"query": "how to handle a chargeback", "expected": ["Chargebacks are escalated to the finance queue"]},
        {"query": "customer cannot reset password, email not arriving", "expected": ["Password reset emails land in spam"]},
        {"query": "support opening hours on weekends", "expected": ["Support hours are 08:00 to 20:00 CET"]},
        {"query": "Swiss customers see wrong currency", "expected": ["wrong currency for Swiss customers"]},
        {"query": "can I ask for the card number", "expected": ["Never ask customers for full card numbers"]},
        {"query": "what do enterprise customers get", "expected": ["Enterprise customers get a named account manager"]},
        {"query": "customer satisfaction score", "expected": ["Customer satisfaction was 91% in Q4 2024"]},
        {"query": "who owns the macros", "expected": ["the owner of the macro library is Fatima"]},
        {"query": "hiring plans", "expected": ["Hire two Dutch-speaking agents"]},
        {"query": "most frequent reason for tickets", "expected": ["most common ticket reason in April"]},
    ],
    seed=55,
)
