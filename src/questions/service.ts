// Builds the question service of a run: the harness's port when configured, else the operator page.
import type { QuestionSettings } from "../config/resources/questions.ts";
import { OperatorBoard } from "./board.ts";
import { QuestionDesk } from "./desk.ts";
import { HarnessPort } from "./harness-port.ts";

export interface QuestionService {
  desk: QuestionDesk;
  /** The space ask_user targets; without one, ask_user is not registered. */
  space: string | undefined;
  /** Present when the sidecar is its own question port (no harness port configured). */
  board: OperatorBoard | undefined;
  /** The token that opens the operator page (the default surface's). */
  operatorToken: string;
}

/** Builds the service; pending cards end (no human) when the run closes. */
export function connectQuestions(
  settings: QuestionSettings,
  operatorToken: string,
  lifecycle: { add(name: string, close: () => void): void },
): QuestionService {
  const board = settings.port ? undefined : new OperatorBoard();
  if (board) lifecycle.add("operator page", () => board.close());
  const port = settings.port ? new HarnessPort(settings.port, settings.token) : board!;
  return { desk: new QuestionDesk(port, settings.timeoutSeconds), space: settings.space, board, operatorToken };
}
