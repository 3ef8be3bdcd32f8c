// ask_user argument validation: each bad call is refused with a sentence naming the problem; nothing is asked.
import { describe, expect, test } from "bun:test";
import { startQuestionPort } from "../helpers/question-port.ts";
import { startTestRun } from "../helpers/sidecar.ts";
import { tempDir } from "../helpers/temp-dir.ts";

const eleven = Array.from({ length: 11 }, (_, i) => ({ label: `Option ${i + 1}` }));

const CASES: [string, Record<string, unknown>, string][] = [
  ["an empty question", { question: "   ", allow_free_text: true }, "- question: the question is empty; ask a full question"],
  ["no options and no free text", { question: "Name?" }, "a question with no options needs allow_free_text: true"],
  ["an empty options list", { question: "Pick", options: [] }, "- options: options is empty; omit it and set allow_free_text: true"],
  ["eleven options", { question: "Pick", options: eleven }, "- options: more than 10 options; offer at most 10"],
  ["an empty label", { question: "Pick", options: [{ label: "A" }, { label: " " }] }, "- options.1.label: an option label is empty"],
  ["duplicate labels", { question: "Pick", options: [{ label: "Yes" }, { label: "yes " }] }, "- options: option labels must be unique (ignoring case)"],
  ["multi_select without options", { question: "Which?", allow_free_text: true, multi_select: true }, "multi_select needs options to choose from"],
  ["an unknown argument", { question: "Pick", options: [{ label: "A" }], urgency: "high" }, "- urgency: unknown argument `urgency`; ask_user takes `question`, `context`, `options`, `allow_free_text`, `multi_select`"],
  ["an option with an unknown key", { question: "Pick", options: [{ label: "A", value: 1 }] }, "- options.0.value: unknown key `value` in options.0; it takes `label`, `description`"],
];

describe("ask_user validation", () => {
  test.each(CASES)("refuses %s", async (_name, args, expected) => {
    await using dir = await tempDir();
    await using port = await startQuestionPort();
    await using run = await startTestRun(dir.path, { resources: { questions: { port: port.url, space: "s" } } });
    const client = await run.client();
    await client.listTools();
    const result = await client.callTool({ name: "ask_user", arguments: args });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toStartWith("Invalid arguments for ask_user:");
    expect(text).toContain(expected);
    expect(text).toContain("Expected arguments: {question: string, context?: string, options?: object[], allow_free_text?: boolean, multi_select?: boolean}");
    expect(port.cards).toHaveLength(0);
  });
});
