// JavaScript values as DAP shows them: one line of text and a type, from V8's remote objects.
import type Protocol from "devtools-protocol";

type RemoteObject = Protocol.Runtime.RemoteObject;

/** How many properties or elements a one-line preview lists before "…". */
const PREVIEW_ITEMS = 5;

/** The value's text: strings quoted, objects as a short preview (`{a: 1, b: "x"}`, `Array(3) [1, 2, 3]`). */
export function valueText(object: RemoteObject): string {
  switch (object.type) {
    case "undefined":
      return "undefined";
    case "string":
      return JSON.stringify(object.value);
    case "number":
    case "boolean":
      return object.unserializableValue ?? String(object.value);
    case "bigint":
      return object.unserializableValue ?? `${object.description}n`;
    case "symbol":
      return object.description ?? "Symbol()";
    case "function":
      return functionText(object.description ?? "function");
    case "object":
      if (object.subtype === "null") return "null";
      return object.preview ? previewText(object.preview, object.description) : object.description ?? object.className ?? "Object";
    default:
      return object.description ?? String(object.value);
  }
}

/** The type DAP shows: the class for objects (Map, Array, Date), else the primitive's type. */
export function valueType(object: RemoteObject): string {
  if (object.type === "object") return object.subtype === "null" ? "null" : object.className ?? "Object";
  return object.type;
}

/** Whether the value has children to list (objects and functions; not null). */
export function hasChildren(object: RemoteObject): boolean {
  return object.objectId !== undefined && (object.type === "object" || object.type === "function") && object.subtype !== "null";
}

function functionText(description: string): string {
  const head = description.split("\n")[0]!.replace(/\s*\{\s*$/, "");
  return head.length > 80 ? `${head.slice(0, 80)}…` : head;
}

function previewText(preview: Protocol.Runtime.ObjectPreview, description: string | undefined): string {
  const items = preview.properties.slice(0, PREVIEW_ITEMS).map((property) => {
    const value = property.type === "string" ? JSON.stringify(property.value) : property.value ?? property.type;
    return preview.subtype === "array" || preview.subtype === "typedarray" ? value : `${property.name}: ${value}`;
  });
  const entries = (preview.entries ?? []).slice(0, PREVIEW_ITEMS).map((entry) => {
    const value = entry.value.description ?? entry.value.type;
    return entry.key ? `${entry.key.description ?? entry.key.type} => ${value}` : value;
  });
  const all = [...entries, ...items];
  const more = preview.overflow || all.length < (preview.properties.length + (preview.entries?.length ?? 0)) ? ", …" : "";
  if (preview.subtype === "array" || preview.subtype === "typedarray") return `${description ?? "Array"} [${all.join(", ")}${more}]`;
  if (preview.subtype && preview.subtype !== "map" && preview.subtype !== "set") return description ?? preview.subtype;
  const name = description && description !== "Object" ? `${description} ` : "";
  return `${name}{${all.join(", ")}${more}}`;
}
