export * from "./role";
export * from "./lookups";
