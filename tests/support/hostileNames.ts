/**
 * Record names a generated program gives meanings of its own to, in CommonJS, ES modules or
 * TypeScript: module bindings, helpers TypeScript emits, reserved words, globals, and the names
 * an exported program declares itself (and their spellings once made identifiers).
 */
export const HOSTILE_NAMES = [
  ...["require", "exports", "module", "__filename", "__dirname", "__importStar", "__createBinding"],
  ...["pulumi", "platform", "config", "opts", "underUid", "under uid", "viewer role uid"],
  ...["undefined", "arguments", "eval", "await", "yield", "let", "static", "enum", "default", "class"],
  ...["global", "global this", "globalThis", "process", "console", "NaN", "Infinity", "setTimeout", "fetch"],
  ...["Object", "Array", "Promise", "Symbol", "JSON", "Math", "Reflect", "String", "Error", "URL", "Buffer"],
  ...["constructor", "__proto__", "toString", "hasOwnProperty"],
];

/** Those a group may be named (lowercase letters, digits, space, ".", "_" and "-"). */
export const HOSTILE_GROUP_NAMES = HOSTILE_NAMES.filter((name) => /^[a-z0-9 ._-]+$/.test(name));
