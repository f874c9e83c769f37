// OpenAPI building blocks from the zod contract, shared by both generators
// (docs: openapi.ts, assistant: assistant-api.ts).
import { z } from 'zod';

export type Json = Record<string, unknown>;

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** `{ name: $ref }` for each named header component. */
export const headerRefs = (names: readonly string[]): Json => Object.fromEntries(names.map((n) => [n, ref('headers', n)]));

/** `{ "<status>": $ref }` for each named response component. */
export function responseRefs<N extends string>(statusOf: (name: N) => number, names: readonly N[]): Json {
  return Object.fromEntries(names.map((n) => [String(statusOf(n)), ref('responses', n)]));
}

/** JSON Schema without zod's noise (dialect marker, safe-integer bounds); cleans in place. */
function cleanSchema(schema: unknown): Json {
  const drop = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(drop);
    const o = node as Json;
    delete o.$schema;
    delete o.$id;
    if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
    if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
    Object.values(o).forEach(drop);
  };
  drop(schema);
  return schema as Json;
}

export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'output') => cleanSchema(z.toJSONSchema(schema, { io }));

/** Named component schemas: requests as their input type, responses as their output type. */
export function schemaComponents(requests: [z.ZodType, string][], responses: [z.ZodType, string][]): Record<string, Json> {
  const uri = (id: string) => `#/components/schemas/${id}`;
  const registry = (named: [z.ZodType, string][]) => {
    const r = z.registry<{ id: string }>();
    for (const [schema, id] of named) r.add(schema, { id });
    return r;
  };
  const out = {
    ...(z.toJSONSchema(registry(requests), { uri, io: 'input' }).schemas as Record<string, Json>),
    ...(z.toJSONSchema(registry(responses), { uri, io: 'output' }).schemas as Record<string, Json>),
  };
  for (const s of Object.values(out)) cleanSchema(s);
  return out;
}

/** Header components from a `{ name: { schema, description } }` table. */
export function headerComponents(headers: Readonly<Record<string, { schema: z.ZodType; description: string }>>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, h] of Object.entries(headers)) out[name] = { description: h.description, schema: jsonSchema(h.schema) };
  return out;
}

/** A JSON error response component: its schema component and an example body. */
export function errorResponse(description: string, headers: Json, schemaName: string, example: Json): Json {
  return { description, headers, content: { 'application/json': { schema: ref('schemas', schemaName), example } } };
}
