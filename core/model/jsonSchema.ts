/** The subset of JSON Schema zod writes for the field toolkit's schemas (`z.toJSONSchema`, draft 2020-12). */
export interface JsonSchema {
  type?: string | string[];
  enum?: readonly unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  pattern?: string;
  description?: string;
}
