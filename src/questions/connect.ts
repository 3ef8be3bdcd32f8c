// The questions domain's entry: the harness's question port when configured, else the operator
// board, whose cards the run's console shows and answers.
import type { QuestionSettings } from "../config/resources/questions.ts";
import type { Connect } from "../host/connect-context.ts";
import { OperatorBoard } from "./board.ts";
import { QuestionDesk } from "./desk.ts";
import { HarnessPort } from "./harness-port.ts";

export interface QuestionService {
  desk: QuestionDesk;
  /** The space ask_user targets; without one, ask_user is not registered. */
  space: string | undefined;
  /** Present when the sidecar is its own question port (no harness port configured): the console's cards. */
  board: OperatorBoard | undefined;
}

/** Builds the service; pending cards end (no human) when the run closes. */
export const connect: Connect<QuestionSettings, QuestionService> = (settings, ctx) => {
  const board = settings.port ? undefined : new OperatorBoard();
  if (board) ctx.lifecycle.add("operator page", () => board.close());
  const port = settings.port ? new HarnessPort(settings.port, settings.token) : board!;
  return { desk: new QuestionDesk(port, settings.timeoutSeconds), space: settings.space, board };
};
