// The `lifecycle` namespace: ["lifecycle", "policies"], the team's expiry
// policies, one stored list of `{ section, maxAgeDays }` (policies.js
// checks them before they are kept).

const POLICIES = ["lifecycle", "policies"];

/** The team's policies, `[]` when none were set. */
export const readPolicies = async (storage) => (await storage.get(POLICIES)) ?? [];

/** Set the team's policies. */
export const writePolicies = (storage, policies) => storage.put(POLICIES, policies);

/** The entries of `policies` (none when empty), for a batch of writes. */
export const policyEntries = (policies) => (policies.length > 0 ? [[POLICIES, policies]] : []);
