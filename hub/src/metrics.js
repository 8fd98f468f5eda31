// The hub's metrics (docs/HUB.md, "Observability"): counters and histograms
// kept in memory by each hub application, rendered in the Prometheus text
// format by `GET /metrics` (the operator token; routes/metrics.js). On
// Deno one process holds them all; on Workers each team's Durable Object
// counts its own, and the Worker adds up what every team's object answers
// (worker.js).

/** Upper bounds of the duration histograms, in seconds. */
export const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const HELP = {
  memdoc_http_requests_total: ["counter", "HTTP requests answered, by route template, method and status"],
  memdoc_http_request_duration_seconds: ["histogram", "Time to answer a request, by route template"],
  memdoc_saves_total: ["counter", "Saves by outcome (saved, no_op, merged, conflict, rejected)"],
  memdoc_recalls_total: ["counter", "Recalls (GET recall, and prompt with ?q= or ?budget=)"],
  memdoc_recall_duration_seconds: ["histogram", "Time of a recall in the engine"],
  memdoc_sweeps_total: ["counter", "Lifecycle sweeps of a team (scheduled or an admin's)"],
  memdoc_archived_entries_total: ["counter", "Entries the sweeps expired into the history"],
  memdoc_rate_limited_total: ["counter", "Requests refused 429 (and MCP tool calls refused rate/limited)"],
  memdoc_mcp_tool_calls_total: ["counter", "MCP tool calls, by tool and outcome (ok, error)"],
  memdoc_event_subscribers: ["gauge", "Open event subscriptions (WebSockets)"],
};

const labelText = (labels) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
};

/**
 * The metrics of one hub application; `snapshot()` is plain JSON, and
 * `render` adds up any number of snapshots.
 */
export class Metrics {
  constructor() {
    /** name → label text → value */
    this.counters = {};
    /** name → label text → { buckets: number[], sum, count } */
    this.histograms = {};
  }

  add(name, labels = {}, by = 1) {
    const series = (this.counters[name] ??= {});
    const key = labelText(labels);
    series[key] = (series[key] ?? 0) + by;
  }

  observe(name, labels, seconds) {
    const series = (this.histograms[name] ??= {});
    const key = labelText(labels);
    const h = (series[key] ??= { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 });
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) h.buckets[i] += 1;
    });
    h.sum += seconds;
    h.count += 1;
  }

  /** One answered request. */
  request({ route, method, status, seconds }) {
    this.add("memdoc_http_requests_total", { route, method, status });
    this.observe("memdoc_http_request_duration_seconds", { route }, seconds);
    if (status === 429) this.add("memdoc_rate_limited_total");
  }

  snapshot(subscribers = 0) {
    return { counters: this.counters, histograms: this.histograms, gauges: { memdoc_event_subscribers: subscribers } };
  }
}

/** The Prometheus text of the sum of `snapshots`. */
export function render(snapshots) {
  const counters = {};
  const histograms = {};
  const gauges = {};
  for (const s of snapshots) {
    for (const [name, series] of Object.entries(s.counters ?? {})) {
      for (const [key, v] of Object.entries(series)) (counters[name] ??= {})[key] = ((counters[name] ??= {})[key] ?? 0) + v;
    }
    for (const [name, series] of Object.entries(s.histograms ?? {})) {
      for (const [key, h] of Object.entries(series)) {
        const into = ((histograms[name] ??= {})[key] ??= { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 });
        h.buckets.forEach((n, i) => (into.buckets[i] += n));
        into.sum += h.sum;
        into.count += h.count;
      }
    }
    for (const [name, v] of Object.entries(s.gauges ?? {})) gauges[name] = (gauges[name] ?? 0) + v;
  }
  const lines = [];
  for (const [name, [type, help]] of Object.entries(HELP)) {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    if (type === "counter") {
      const series = counters[name] ?? {};
      // A counter without labels is shown at 0 before its first event.
      if (Object.keys(series).length === 0 && !["memdoc_http_requests_total", "memdoc_saves_total", "memdoc_mcp_tool_calls_total"].includes(name)) lines.push(`${name} 0`);
      for (const [key, v] of Object.entries(series)) lines.push(`${name}${key} ${v}`);
    } else if (type === "gauge") {
      lines.push(`${name} ${gauges[name] ?? 0}`);
    } else {
      const series = histograms[name] ?? {};
      if (Object.keys(series).length === 0 && name === "memdoc_recall_duration_seconds") series[""] = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      for (const [key, h] of Object.entries(series)) {
        const inner = key === "" ? "" : key.slice(1, -1);
        const le = (v) => `{${inner ? `${inner},` : ""}le="${v}"}`;
        BUCKETS.forEach((b, i) => lines.push(`${name}_bucket${le(b)} ${h.buckets[i]}`));
        lines.push(`${name}_bucket${le("+Inf")} ${h.count}`, `${name}_sum${key} ${h.sum}`, `${name}_count${key} ${h.count}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
