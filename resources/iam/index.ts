export * from "./group";
export * from "./identity";
export * from "./roleBinding";
export * from "./role";
export * from "./customRole";
export * from "./lookups";
export * from "./groupInvite";
export * from "./accountAssociation";
