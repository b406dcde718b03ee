import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const team = new platform.iam.Group("team", { parentUid: config.require("rootUid"), name: "settings team" });

export const uid = team.uid;
