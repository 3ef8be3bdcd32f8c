// ask_user: puts a question card in front of the operator and returns the outcome (questions/desk.ts).
import * as v from "valibot";
import { ClientPort } from "../questions/client-port.ts";
import type { AskResult, QuestionDesk } from "../questions/desk.ts";
import { defineTool } from "../tool/define.ts";
import description from "./ask-user.txt" with { type: "text" };

const MAX_OPTIONS = 10;

const option = v.strictObject({
  label: v.pipe(
    v.string("expected the option label as a string"),
    v.trim(),
    v.minLength(1, "an option label is empty; give every option a short label"),
    v.maxLength(200, "an option label is longer than 200 characters; keep labels short and put detail in description"),
    v.description("A short label, unique among the options; the answer names the chosen labels."),
  ),
  description: v.optional(
    v.pipe(
      v.string("expected the option description as a string"),
      v.maxLength(1_000, "an option description is longer than 1000 characters"),
      v.description("What choosing this option means, shown under its label."),
    ),
  ),
});

const askInput = v.pipe(
  v.strictObject({
    question: v.pipe(
      v.string("expected the question as a string"),
      v.trim(),
      v.minLength(1, "the question is empty; ask a full question"),
      v.maxLength(2_000, "the question is longer than 2000 characters; put background in context"),
      v.description("The question, in full (at most 2000 characters); background goes in context."),
    ),
    context: v.optional(
      v.pipe(
        v.string("expected context as a string"),
        v.maxLength(8_000, "context is longer than 8000 characters"),
        v.description("What the operator needs to know to answer, shown with the question (at most 8000 characters)."),
      ),
    ),
    options: v.optional(
      v.pipe(
        v.array(option, "expected options as a list of {label, description?}"),
        v.minLength(1, "options is empty; omit it and set allow_free_text: true for an open question"),
        v.maxLength(MAX_OPTIONS, `more than ${MAX_OPTIONS} options; offer at most ${MAX_OPTIONS} (group or narrow them)`),
        v.check((options) => uniqueLabels(options), "option labels must be unique (ignoring case); rename or merge the duplicates"),
        v.description("1-10 answers to choose from; omit them for an open question (then set allow_free_text)."),
      ),
    ),
    allow_free_text: v.optional(
      v.pipe(v.boolean("expected allow_free_text as true or false"), v.description("Let the operator type an answer; needed when there are no options.")),
      false,
    ),
    multi_select: v.optional(
      v.pipe(v.boolean("expected multi_select as true or false"), v.description("Let the operator choose several of the options (needs options).")),
      false,
    ),
  }),
  v.check(
    (input) => (input.options?.length ?? 0) > 0 || input.allow_free_text,
    "a question with no options needs allow_free_text: true; give 1-10 options or allow a typed answer",
  ),
  v.check((input) => !input.multi_select || (input.options?.length ?? 0) > 0, "multi_select needs options to choose from"),
);

/** Which way the question reached a person: the harness's question port, the calling client, the operator page. */
const via = v.picklist(["port", "client", "page"]);

const askOutput = v.union([
  v.object({ outcome: v.literal("answered"), question_id: v.string(), via, selected: v.array(v.string()), text: v.nullable(v.string()) }),
  // A skip remembered from earlier in the run went nowhere this time, so it names no way.
  v.object({ outcome: v.literal("skipped"), question_id: v.string(), via: v.optional(via), remembered: v.boolean() }),
  // The outcomes that end in an isError result still carry their outcome as a field, beside the
  // error shape every error result has ({error: {code, message}}, the code being the outcome).
  v.object({
    outcome: v.picklist(["timeout", "no_human", "port_failed", "busy", "cancelled"]),
    question_id: v.optional(v.string()),
    via: v.optional(via),
  }),
]);

export function askUserTool(desk: QuestionDesk, space: string) {
  return defineTool({
    name: "ask_user",
    title: "Ask the operator",
    tier: "read",
    description,
    input: askInput,
    output: askOutput,
    async run(input, ctx) {
      const result = await desk.ask(
        space,
        {
          surface: ctx.surface,
          question: input.question,
          context: input.context?.trim() || null,
          options: (input.options ?? []).map((o) => ({ label: o.label, description: o.description?.trim() || null })),
          allowFreeText: input.allow_free_text,
          multiSelect: input.multi_select,
        },
        { signal: ctx.signal, progress: ctx.progress, client: ctx.elicit ? new ClientPort(ctx.elicit) : undefined },
      );
      return reply(result);
    },
  });
}

const ASSUME = "Continue on a stated assumption (say which one you make) and do not ask this question again.";

function reply(result: AskResult) {
  switch (result.outcome) {
    case "answered": {
      const parts = [
        ...(result.selected.length ? [`chose ${result.selected.map((l) => JSON.stringify(l)).join(", ")}`] : []),
        ...(result.text !== null ? [`wrote: ${result.text}`] : []),
      ];
      return {
        text: `The operator ${parts.join("; and ")}`,
        data: { outcome: "answered" as const, question_id: result.questionId, via: result.via, selected: result.selected, text: result.text },
      };
    }
    case "skipped":
      return {
        text: `${result.remembered ? "The operator already skipped this question in this run." : "The operator skipped this question."} ${ASSUME}`,
        data: { outcome: "skipped" as const, question_id: result.questionId, ...("via" in result ? { via: result.via } : {}), remembered: result.remembered },
      };
    case "timeout":
      // The limit, not the time waited: a port may give up at once, and "within 0 s" misleads.
      return failed(`${result.byPort ? "The question port reports that nobody answered in time" : "Nobody answered in time"} (this run waits up to ${result.limitSeconds} s for an answer), so the question was withdrawn. ${ASSUME}`, {
        outcome: "timeout",
        question_id: result.questionId,
        via: result.via,
      });
    case "no_human":
      // The console's link never reaches the agent (it could answer its own questions): only what the person can run.
      return failed(
        `No human is attached to answer (${result.reason}). The question was not asked and will not be: do not wait or retry. ${ASSUME} If you cannot go on without an answer, stop and report what you need${result.via === "page" ? "; tell the person that running `sidecar console` in a terminal (as the user the sidecar runs as) opens this run's console, where your questions can be answered" : ""}.`,
        { outcome: "no_human", question_id: result.questionId, via: result.via },
      );
    case "port_failed":
      return failed(
        `${result.via === "client" ? "Asking through the MCP client failed" : "The question port failed"}: ${result.reason}. No answer can come back for this question, whether or not it was shown. ${ASSUME} If you cannot go on without an answer, stop and report what you need.`,
        { outcome: "port_failed", question_id: result.questionId, via: result.via },
      );
    case "busy":
      return failed(
        `Another question is already open in this space ("${result.openQuestion}", asked ${Math.round((Date.now() - result.openSince) / 1000)} s ago). Ask one question at a time: wait for that answer, then ask again if still needed.`,
        { outcome: "busy" },
      );
    case "cancelled":
      return result.dismissed
        ? failed(`The operator closed the question without answering. ${ASSUME}`, { outcome: "cancelled", question_id: result.questionId, via: result.via })
        : failed("The question was withdrawn because the call was cancelled.", { outcome: "cancelled", question_id: result.questionId, via: result.via });
  }
}

/** An outcome that failed: an isError result whose data still names the outcome, which is also its error code. */
function failed(
  text: string,
  data: { outcome: "timeout" | "no_human" | "port_failed" | "busy" | "cancelled"; question_id?: string; via?: AskResultVia },
) {
  return { isError: true, errorCode: data.outcome, text, data };
}

type AskResultVia = v.InferOutput<typeof via>;

function uniqueLabels(options: { label: string }[]): boolean {
  const labels = options.map((o) => o.label.toLowerCase());
  return new Set(labels).size === labels.length;
}
