// Checks a real response against an OpenAPI 3.1 description: the status is
// documented for the operation (or `default`), the media type is one the
// response lists, and the JSON body matches its schema. The schema checker
// covers the JSON Schema subset hub/openapi.json uses: $ref (local), type
// (also a list), properties, required, additionalProperties, items, enum,
// const, minimum, maximum, minLength, anyOf.

function resolveRef(spec, ref) {
  if (!ref.startsWith("#/")) throw new Error(`only local $ref: ${ref}`);
  return ref.slice(2).split("/").reduce((node, part) => node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
}

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Errors of `value` against `schema`, each with its JSON path. */
export function checkSchema(spec, schema, value, path = "$") {
  if (schema.$ref) return checkSchema(spec, resolveRef(spec, schema.$ref), value, path);
  const errors = [];
  if (schema.anyOf) {
    const each = schema.anyOf.map((s) => checkSchema(spec, s, value, path));
    if (!each.some((e) => e.length === 0)) errors.push(`${path}: matches none of anyOf (${each.map((e) => e[0]).join("; ")})`);
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === "integer" && types.includes("number"))) {
      return [...errors, `${path}: is ${actual}, not ${types.join(" or ")}`];
    }
  }
  if (schema.enum && !schema.enum.some((v) => v === value)) errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ("const" in schema && schema.const !== value) errors.push(`${path}: is not ${JSON.stringify(schema.const)}`);
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above ${schema.maximum}`);
  }
  if (typeof value === "string" && schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
  if (typeOf(value) === "object") {
    for (const name of schema.required ?? []) if (!(name in value)) errors.push(`${path}: missing ${name}`);
    for (const [name, v] of Object.entries(value)) {
      if (schema.properties?.[name]) errors.push(...checkSchema(spec, schema.properties[name], v, `${path}.${name}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property ${name}`);
      else if (typeof schema.additionalProperties === "object") errors.push(...checkSchema(spec, schema.additionalProperties, v, `${path}.${name}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...checkSchema(spec, schema.items, v, `${path}[${i}]`)));
  return errors;
}

/** Errors of a response to `method template` against the description. */
export function checkResponse(spec, template, method, status, contentType, json, text) {
  const operation = spec.paths[template]?.[method];
  if (!operation) return [`${method.toUpperCase()} ${template} is not documented`];
  let response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) return [`status ${status} is not documented for ${method.toUpperCase()} ${template}`];
  if (response.$ref) response = resolveRef(spec, response.$ref);
  const media = contentType.split(";")[0].trim();
  if (!response.content) return text === "" ? [] : [`status ${status} documents no body, got ${media}`];
  const described = response.content[media];
  if (!described) return [`status ${status}: ${media} is not documented (${Object.keys(response.content).join(", ")})`];
  if (!described.schema) return [];
  // JSON and problem+json; NDJSON (an export) is text.
  if (media === "application/json" || media.endsWith("+json")) return checkSchema(spec, described.schema, json);
  return checkSchema(spec, described.schema, text);
}
