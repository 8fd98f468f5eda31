// The `stats` namespace: ["stats", "YYYY-MM-DDTHH"], the team's figures of
// one UTC hour (stats.js counts them), and the team's queue of their
// updates, one at a time.
import { serially } from "./serial.js";

const hourKey = (hour) => ["stats", hour];

/** Run `task` after every update of the team's figures queued before it. */
export const statsUpdate = (storage, task) => serially(storage, "stats", task);

/** The record of `hour`, undefined when nothing was counted in it. */
export const readHour = (storage, hour) => storage.get(hourKey(hour));

/** Keep the record of `hour`. */
export const writeHour = (storage, hour, record) => storage.put(hourKey(hour), record);

/** Delete up to 500 records of hours before `hour`. */
export async function forgetBefore(storage, hour) {
  const old = await storage.list(["stats"], { end: hourKey(hour), limit: 500 });
  if (old.length) await storage.deleteMany(old.map((e) => e.key));
}

/** Every hour's record, oldest first. */
export async function listHours(storage) {
  return (await storage.list(["stats"])).map((e) => e.value);
}
