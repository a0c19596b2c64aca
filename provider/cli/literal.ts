import type { Json } from "../schemas/json.js";

/**
 * A TypeScript string literal for any string: quotes, backslashes, control characters, lone
 * surrogates and line separators are escaped (JSON's escaping is valid TypeScript, and inside
 * double quotes `${` and `*\/` are plain text).
 */
export function stringLiteral(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * An object key as written in a literal: bare when it is an identifier, quoted otherwise, and
 * computed for `__proto__` (a plain `"__proto__": x` would set the prototype, not a key).
 */
export function keyLiteral(key: string): string {
  if (key === "__proto__") return `[${stringLiteral(key)}]`;
  return IDENTIFIER.test(key) ? key : stringLiteral(key);
}

/** A TypeScript expression for a JSON value, indented by `indent` for nested lines. */
export function jsonLiteral(value: Json, indent = ""): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${jsonLiteral(v, inner)},\n`).join("")}${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${keyLiteral(k)}: ${jsonLiteral(v, inner)},\n`).join("")}${indent}}`;
}

/**
 * Text safe inside a `//` comment: no line breaks of any kind (a newline would end the comment
 * and turn the rest into code).
 */
export function commentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029\u0085]+/g, " ");
}
