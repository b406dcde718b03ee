export * from "./advisory";
