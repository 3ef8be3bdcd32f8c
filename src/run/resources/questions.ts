// The question resource (config `questions`): ask_user, permission prompts, the operator page's cards.
import { connect } from "../../questions/connect.ts";
import { permissionRoute } from "../../questions/permission-route.ts";
import { askUserTool } from "../../tools/ask-user.ts";
import { defineResource } from "./resource.ts";

export const questions = defineResource({
  name: "questions",
  configKey: "questions",
  settings: (resources) => resources.questions,
  connect,
  tools: (questions) => (questions.space ? [askUserTool(questions.desk, questions.space)] : []),
  toolsNeed: "ask_user needs a space",
  routes: (questions) => [permissionRoute(questions)],
});
