export * from "./repo";
export * from "./repoResource";
export * from "./tag";
export * from "./tagResource";
export * from "./overlay";
export * from "./overlayBinding";
