export * from "./repo";
export * from "./tag";
