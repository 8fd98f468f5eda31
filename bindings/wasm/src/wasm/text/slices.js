// The JavaScript half of slices.rs beside this file (text out): a result
// joined from slices of its input and of what was converted (`repeated`).

/** What a piece of `join`'s plan is a slice of (slices.rs). */
const FROM_SOURCE = 0;

/**
 * The pieces of `plan` joined: three numbers each, whether the piece is a
 * slice of `source` (`FROM_SOURCE`) or of `converted`, and the UTF-16 units
 * where it starts and ends there.
 */
export function join(source, converted, plan) {
  let out = "";
  for (let k = 0; k < plan.length; k += 3) {
    out += (plan[k] === FROM_SOURCE ? source : converted).slice(plan[k + 1], plan[k + 2]);
  }
  return out;
}
