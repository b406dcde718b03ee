import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const existing = platform.iam.Group.get("existing", config.require("existingUid"));
const child = new platform.iam.Group("child", { parentUid: existing.uid, name: "child-of-existing" });
export const existingName = existing.name;
export const childUid = child.uid;
