export * from "./repo";
export * from "./repoResource";
export * from "./tag";
