export * from "./subscription/resource";
export * from "./subscription/lookups";
