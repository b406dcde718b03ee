export * from "./subscription";
