// MEMDOC_HUB_EMBEDDER=e5 on the real Deno hub (docs/HUB.md, "Recall by
// meaning"): multilingual-e5-small from the model file `bash scripts/setup`
// fetched. A team keeps two memories in Chinese (engineering, product) and
// one in English (platform), the evaluation's own (tests/recall/eval-zh/,
// tests/recall/eval/); a question worded differently from its answer, in
// Chinese, and a question in the other language than its answer each get
// their entry within 400 code points (the evaluation's measure), in a
// memory's recall and in the team's.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { root, startDeno } from "../run.mjs";
import { client, until } from "./client.mjs";

const operator = randomBytes(24).toString("base64url");
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-e5-"));
after(() => rmSync(work, { recursive: true, force: true }));

const MODEL = join(root, "target", "models", "multilingual-e5-small", "e5-small-q4.bin");
const MEMORIES = {
  engineering: join("recall", "eval-zh", "team-engineering.md"),
  product: join("recall", "eval-zh", "team-product.md"),
  platform: join("recall", "eval", "team-platform.md"),
};

/** Whether `result` selected an item that holds `answer`. */
const found = (result, answer) => result.selected.some((item) => item.text.includes(answer));
const texts = (result) => JSON.stringify(result.selected.map((item) => item.text));

describe("recall by meaning on Deno with MEMDOC_HUB_EMBEDDER=e5", { concurrency: false }, () => {
  let hub;
  let call;
  let t;
  before(async () => {
    hub = await startDeno({ kvPath: join(work, "kv"), vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_EMBEDDER: "e5", MEMDOC_HUB_E5_MODEL: MODEL } });
    call = client(hub.url);
    const made = await call("POST", "/v1/teams", { key: operator, body: { team: "e5-team", admin: "root" } });
    assert.equal(made.status, 201, made.text);
    const key = async (member, role) => (await call("POST", "/v1/teams/e5-team/keys", { key: made.json.key, body: { member, role } })).json.key;
    t = { admin: made.json.key, writer: await key("alice", "writer"), reader: await key("bob", "reader") };
    for (const [id, file] of Object.entries(MEMORIES)) {
      const body = readFileSync(join(root, "tests", file), "utf8");
      const saved = await call("PUT", `/v1/teams/e5-team/memories/team/${id}`, { key: t.writer, body, headers: { "if-match": '"0"' } });
      assert.equal(saved.status, 200, saved.text);
    }
    // Every memory indexed by e5 (about 220 items, on a shared machine).
    await until("the index to catch up", async () => (await call("GET", "/v1/teams/e5-team/stats", { key: t.admin })).json.indexLag === 0, 300_000);
  });
  after(() => hub?.stop());

  const memoryRecall = async (id, question) => {
    const r = await call("GET", `/v1/teams/e5-team/memories/team/${id}/recall?q=${encodeURIComponent(question)}&budget=400`, { key: t.reader });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.semantic, { model: "multilingual-e5-small-q4", degraded: null }, r.text);
    return r.json;
  };
  const teamRecall = async (question) => {
    const r = await call("GET", `/v1/teams/e5-team/recall?q=${encodeURIComponent(question)}&budget=400`, { key: t.reader });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.semantic?.model, "multilingual-e5-small-q4", r.text);
    return r.json;
  };

  test("a Chinese question in other words gets its Chinese entry, in a memory's recall and in the team's", async () => {
    const one = await memoryRecall("engineering", "我们的关系型数据库选的是什么？");
    assert.ok(found(one, "主库是 PostgreSQL 16"), texts(one));
    const team = await teamRecall("买了不满意多久之内能拿回钱？");
    assert.ok(found(team, "退款申请在十四天内无条件受理"), texts(team));
  });

  test("a question in the other language gets its entry, in a memory's recall and in the team's", async () => {
    const one = await memoryRecall("platform", "客服用什么系统处理客户工单？");
    assert.ok(found(one, "Support uses Zendesk for customer tickets"), texts(one));
    const team = await teamRecall("who is our biggest customer?");
    assert.ok(found(team, "最大的客户是一家德国物流公司"), texts(team));
  });
});
