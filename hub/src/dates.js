// The dates the hub reads (docs/HUB.md, "Dates"): RFC 3339 date-times with
// a time zone, and, where a route says so, full dates. A reading is strict:
// the calendar must have the day (2099-02-30 is refused, not moved to
// March), hours run 00-23 (T24:00:00 is refused, not the next day),
// minutes and seconds 00-59 (a leap second is refused: the hub's clock has
// none), and an offset at most 23:59. `Date.parse` alone would move such
// dates silently.

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const daysIn = (year, month) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const validDay = (y, mo, d) => mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);

/** The instant of an RFC 3339 date-time with a time zone, in ms; NaN when `text` is not one. */
export function instantOf(text) {
  const m = typeof text === "string" ? DATE_TIME.exec(text) : null;
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const [oh, om] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return Number.NaN;
  return Date.parse(text);
}

/** The start (UTC) of a full date `YYYY-MM-DD`, in ms; NaN when `text` is not one. */
export function dayOf(text) {
  const m = typeof text === "string" ? DATE.exec(text) : null;
  if (!m) return Number.NaN;
  const [y, mo, d] = m.slice(1, 4).map(Number);
  return validDay(y, mo, d) ? Date.UTC(y, mo - 1, d) : Number.NaN;
}

/** Whether `text` is an RFC 3339 date-time with a time zone (instantOf). */
export const isDateTime = (text) => Number.isFinite(instantOf(text));

/** Today in UTC, `YYYY-MM-DD`. */
export const utcToday = () => new Date().toISOString().slice(0, 10);
