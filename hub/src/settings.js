// The hub's settings (docs/HUB.md, "Limits"), read from environment
// variables (Worker [vars] and secrets, Deno env) and checked when the hub
// starts: a setting out of its range stops the start with a message that
// names the setting and its range, instead of a hub that answers 500s.
// Nothing here imports anything, so `npm run hub` can check the settings
// before it starts workerd.

/** A whole-number setting: its name, default and range. */
export const INTEGER_SETTINGS = [
  { name: "MEMDOC_HUB_BODY_LIMIT", key: "bodyCap", fallback: 256 * 1024, min: 1024, max: 16 * 1024 * 1024 },
  { name: "MEMDOC_HUB_BODY_TIMEOUT_MS", key: "bodyTimeoutMs", fallback: 30_000, min: 100, max: 600_000 },
  { name: "MEMDOC_HUB_RATE_PER_MINUTE", key: "ratePerMinute", fallback: 600, min: 1, max: 1_000_000 },
  { name: "MEMDOC_HUB_AUDIT_MAX", key: "auditMax", fallback: 1000, min: 10, max: 100_000 },
  { name: "MEMDOC_HUB_HISTORY_DEPTH", key: "historyDepth", fallback: 50, min: 1, max: 1000 },
  { name: "MEMDOC_HUB_IMPORT_LIMIT", key: "importCap", fallback: 64 * 1024 * 1024, min: 1024, max: 512 * 1024 * 1024 },
  { name: "MEMDOC_HUB_TASK_TTL_SECONDS", key: "taskTtlSeconds", fallback: 86_400, min: 1, max: 30 * 86_400 },
  { name: "MEMDOC_HUB_DELETED_RETENTION_DAYS", key: "deletedRetentionDays", fallback: 30, min: 0, max: 3650 },
];

/** The operator token: printable ASCII without spaces (it is a bearer token), at least this long. */
export const OPERATOR_TOKEN_MIN = 16;

/** A setting that is out of its range. */
export class SettingError extends Error {}

function integer(env, { name, fallback, min, max }) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = /^\s*\d+\s*$/.test(String(raw)) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new SettingError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

/**
 * The hub's settings from `env`.
 * @throws {SettingError} naming the first setting out of range
 */
export function hubConfig(env) {
  const token = env.MEMDOC_HUB_OPERATOR_TOKEN ?? "";
  if (token !== "" && (token.length < OPERATOR_TOKEN_MIN || !/^[\x21-\x7e]+$/.test(token))) {
    throw new SettingError(`MEMDOC_HUB_OPERATOR_TOKEN must be at least ${OPERATOR_TOKEN_MIN} printable ASCII characters without spaces (or unset)`);
  }
  const config = { operatorToken: token };
  for (const setting of INTEGER_SETTINGS) config[setting.key] = integer(env, setting);
  sweepIntervalSeconds(env);
  config.embedder = embedderSetting(env);
  return config;
}

/** The embedders of MEMDOC_HUB_EMBEDDER (docs/HUB.md, "Recall by meaning"). */
export const EMBEDDERS = ["minilm", "static", "e5", "workers-ai", "openai", "none"];

/**
 * The embedder the settings ask for: `{ kind, ... }`, or null when
 * MEMDOC_HUB_EMBEDDER is unset (each target has its default). `openai`
 * needs MEMDOC_HUB_OPENAI_URL and MEMDOC_HUB_OPENAI_MODEL
 * (MEMDOC_HUB_OPENAI_KEY and MEMDOC_HUB_OPENAI_DIMENSIONS optional); `e5`
 * needs MEMDOC_HUB_E5_MODEL, the path of e5-small-q4.bin.
 */
export function embedderSetting(env) {
  const kind = env.MEMDOC_HUB_EMBEDDER ?? "";
  if (kind === "") return null;
  if (!EMBEDDERS.includes(kind)) throw new SettingError(`MEMDOC_HUB_EMBEDDER must be one of ${EMBEDDERS.join(", ")}, not ${JSON.stringify(kind)}`);
  if (kind === "e5") {
    const model = env.MEMDOC_HUB_E5_MODEL ?? "";
    if (model === "") throw new SettingError("MEMDOC_HUB_EMBEDDER=e5 needs MEMDOC_HUB_E5_MODEL, the path of the model file e5-small-q4.bin (docs/HUB.md)");
    return { kind, model };
  }
  if (kind !== "openai") return { kind };
  const baseURL = env.MEMDOC_HUB_OPENAI_URL ?? "";
  if (!/^https?:\/\/[^\s]+$/.test(baseURL)) throw new SettingError(`MEMDOC_HUB_EMBEDDER=openai needs MEMDOC_HUB_OPENAI_URL, the API's base URL (http:// or https://, e.g. https://api.openai.com/v1), not ${JSON.stringify(baseURL)}`);
  const model = env.MEMDOC_HUB_OPENAI_MODEL ?? "";
  if (model === "") throw new SettingError("MEMDOC_HUB_EMBEDDER=openai needs MEMDOC_HUB_OPENAI_MODEL, the embedding model's name (e.g. text-embedding-3-small)");
  const dimensions = integer(env, { name: "MEMDOC_HUB_OPENAI_DIMENSIONS", fallback: undefined, min: 1, max: 65_536 });
  return { kind, baseURL, model, apiKey: env.MEMDOC_HUB_OPENAI_KEY || undefined, dimensions };
}

/** The sweep interval of the schedule, from MEMDOC_HUB_SWEEP_INTERVAL_SECONDS; null when unset. */
export function sweepIntervalSeconds(env) {
  return integer(env, { name: "MEMDOC_HUB_SWEEP_INTERVAL_SECONDS", fallback: null, min: 1, max: 31 * 86_400 });
}

/** The listening port, from PORT (0: any free port). */
export function portSetting(env, fallback = 8787) {
  return integer(env, { name: "PORT", fallback, min: 0, max: 65_535 });
}
