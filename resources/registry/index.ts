export * from "./repo";
export * from "./repoResource";
export * from "./tag/resource";
export * from "./tag/lookups";
export * from "./overlay";
export * from "./overlayBinding";
