/**
 * previewUpdate: what the preview of an update shows as outputs, without a request. The uid
 * stays; the new inputs replace the old; what the service sets on a write is unknown only when
 * the update writes the record (a repo's local `allowDelete` alone writes nothing).
 */
import { completeKind } from "../../model/kind";
import group from "../../../resources/iam/group/description";
import repo from "../../../resources/registry/repo/description";
import { previewUpdate } from "./previewUpdate";

const groupState = {
  uid: "root/team",
  parentUid: "root",
  name: "team",
  description: "before",
  verified: false,
  createTime: "2026-01-01T00:00:00Z",
  updateTime: "2026-01-02T00:00:00Z",
};

test("an update that writes keeps the uid and create time, takes the new inputs, leaves the service's fields unknown", () => {
  const preview = previewUpdate(completeKind(group));
  const { outs, unknown } = preview(groupState, { parentUid: "root", name: "team", description: "after" });
  expect(outs).toMatchObject({
    uid: "root/team",
    parentUid: "root",
    description: "after",
    createTime: groupState.createTime,
  });
  expect(unknown.sort()).toEqual(["updateTime", "verified"]);
});

test("an update of nothing the service holds leaves nothing unknown", () => {
  const preview = previewUpdate(completeKind(repo));
  const state = { uid: "root/repo", parentUid: "root", name: "repo", updateTime: "2026-01-02T00:00:00Z" };
  const { outs, unknown } = preview(state, { parentUid: "root", name: "repo", allowDelete: true });
  expect(outs).toEqual({ ...state, allowDelete: true });
  expect(unknown).toEqual([]);
});
