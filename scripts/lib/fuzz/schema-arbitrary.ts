// Values for the fuzz suite generated from the API contract: the zod request schemas
// are turned into JSON Schema (the same `z.toJSONSchema` the build uses for
// openapi.json) and walked into fast-check arbitraries. Walking JSON Schema rather
// than zod's internals keeps this independent of zod's private structure, and it is
// exactly the contract clients see. `nearSchema` mixes valid values with the near
// misses that find bugs: one field of the wrong type, a missing required field,
// strings past their limits.
import fc from 'fast-check';
import { z } from 'zod';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

/** The request side of a zod schema as JSON Schema (what clients are told to send). */
export function requestSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Printable text with the characters that break naive parsers mixed in. */
export const awkwardText = (maxLength = 60): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\r', '\n', '\t', '\u202e', '\ud800', '\ufeff', '%', '"', '\\', '<', '{', '#', '?', '&', '=', '+', ' ', 'é', '😀'), maxLength }) },
  );

/** Valid values of the schema. Strings stay short; limits are exercised by `nearSchema`. */
export function fromSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fromSchema(s, depth + 1)));
  if (schema.allOf?.length) return fromSchema(Object.assign({}, ...schema.allOf) as JsonSchema, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength);
      return awkwardText(maxLength).filter((s) => s.length >= minLength);
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items && depth < 4 ? fromSchema(schema.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 25),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) record[key] = depth < 4 ? fromSchema(value, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values one step off the schema: a wrong-typed field, a missing required one, an over-long string, or anything at all. */
export function nearSchema(schema: JsonSchema): fc.Arbitrary<{ value: unknown; variant: string }> {
  const valid = fromSchema(schema);
  const tag = (variant: string) => (value: unknown) => ({ value, variant });
  const properties = Object.keys(schema.properties ?? {});
  const arbitraries: fc.WeightedArbitrary<{ value: unknown; variant: string }>[] = [
    { weight: 4, arbitrary: valid.map(tag('valid')) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(tag('any-json')) },
  ];
  if (properties.length) {
    arbitraries.push({
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...properties), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ minLength: 2_001, maxLength: 2_100 }), fc.constant(null)))
        .map(([value, key, wrong]) => ({ value: { ...(value as object), [key]: wrong }, variant: `wrong-${key}` })),
    });
    arbitraries.push({
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom(...properties)).map(([value, key]) => {
        const copy = { ...(value as Record<string, unknown>) };
        delete copy[key];
        return { value: copy, variant: `without-${key}` };
      }),
    });
  }
  return fc.oneof(...arbitraries);
}
