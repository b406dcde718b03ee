export * from "./repo/resource";
export * from "./repo/lookups";
export * from "./repo/types";
export * from "./tag/resource";
export * from "./tag/lookups";
export * from "./overlay";
export * from "./overlayBinding";
