import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const group = new platform.iam.Group("team-group", {
  parentUid: config.require("parentUid"),
  name: config.get("name") ?? "made-by-pipeline",
  description: config.get("description") ?? "declared in code",
});
export const uid = group.uid;
