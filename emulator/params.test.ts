/**
 * Query parameters as the request log keeps them: every name an own key, `__proto__` too, never
 * the log entry's prototype.
 */
import { rawQuery } from "./params";

test("repeated names become arrays; __proto__ is a name like any other", () => {
  const query = rawQuery(new URLSearchParams("__proto__=a&page_size=2&__proto__=b&name=x&name=y&name=z"));
  expect(Object.keys(query)).toEqual(["__proto__", "page_size", "name"]);
  expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(query, "__proto__")?.value).toEqual(["a", "b"]);
  expect(query.page_size).toBe("2");
  expect(query.name).toEqual(["x", "y", "z"]);
  expect(rawQuery(new URLSearchParams("__proto__=only"))).toEqual(JSON.parse('{"__proto__": "only"}'));
});
