/**
 * The API's own documents, read at start-up: every operation (method, path, parameters,
 * request and answer message) and every message. The emulator routes, validates and answers
 * from them, so what it serves is what the documents describe and nothing else.
 */
import * as fs from "node:fs";
import { DEFAULT_DOCUMENT_PATH, readDefaultDocument } from "./apiDocumentFile";

/** One field or message as the documents give it: `ref` names another message, `map` is a map's value. */
export interface DocSchema {
  type?: "string" | "integer" | "boolean" | "object" | "array";
  ref?: string;
  format?: string;
  enum?: string[];
  default?: unknown;
  readOnly?: boolean;
  required?: string[];
  properties?: Record<string, DocSchema>;
  items?: DocSchema;
  map?: DocSchema;
}

export interface DocParameter {
  name: string;
  in: "query" | "path";
  required?: boolean;
  type: string;
  format?: string;
  enum?: string[];
  items?: DocSchema;
}

export interface DocOperation {
  operation: string;
  method: string;
  /** The GA path (`/iam/v2/...`), or the v2beta1 path for operations only there. */
  path: string;
  parameters?: DocParameter[];
  body?: DocSchema;
  bodyRequired?: boolean;
  answer: DocSchema;
}

export interface ApiDocument {
  operations: DocOperation[];
  v2beta1Only: DocOperation[];
  schemas: Record<string, DocSchema>;
}

export { DEFAULT_DOCUMENT_PATH };

const loaded = new Map<string, ApiDocument>();

export function loadApiDocument(file: string = DEFAULT_DOCUMENT_PATH): ApiDocument {
  const cached = loaded.get(file);
  if (cached) return cached;
  let text: string;
  try {
    text = file === DEFAULT_DOCUMENT_PATH ? readDefaultDocument() : fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `the emulator serves the API as its documents describe it, and cannot read them at ${file} ` +
        `(${(error as Error).message})` +
        (file === DEFAULT_DOCUMENT_PATH ? "; `npm run build` copies them there from api/api-v2-schema.json" : ""),
    );
  }
  let doc: ApiDocument;
  try {
    doc = JSON.parse(text) as ApiDocument;
  } catch (error) {
    throw new Error(`the API document ${file} is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(doc?.operations) || !Array.isArray(doc.v2beta1Only) || typeof doc.schemas !== "object")
    throw new Error(`the API document ${file} lacks operations, v2beta1Only or schemas`);
  loaded.set(file, doc);
  return doc;
}
