// The `asset-archive` provider (providers/asset_archive_provider.go): two
// resources, asset-archive:index:AssetResource (its `value` an asset) and
// asset-archive:index:ArchiveResource (its `value` an archive); the inputs
// are echoed as their outputs.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const ASSET = "asset-archive:index:AssetResource";
const ARCHIVE = "asset-archive:index:ArchiveResource";
const SIG = "4dabf18193072939515e22adb298388d";
const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
const ARCHIVE_SIG = "0def7320c3a5731c473e5ecbe6d01bc7";
const is = (v, sig) => v !== null && typeof v === "object" && v[SIG] === sig;
const resource = (ref) => {
  const props = { value: { $ref: ref } };
  return { type: "object", properties: props, required: ["value"], inputProperties: props,
           requiredInputs: ["value"] };
};
const schema = {
  name: "asset-archive",
  version: version("5.0.0"),
  resources: { [ASSET]: resource("pulumi.json#/Asset"), [ARCHIVE]: resource("pulumi.json#/Archive") },
};

// Whether |urn| is of the asset resource; throws for a type of neither.
function isAsset(urn) {
  const t = urnType(urn);
  if (t !== ASSET && t !== ARCHIVE) throw new Error(`invalid URN type: ${t}`);
  return t === ASSET;
}

serve({
  name: "asset-archive",
  version: schema.version,
  schema,
  async check(urn, olds, news) {
    const no = (property, reason) => ({ inputs: news, failures: failure(property, reason) });
    let asset;
    try {
      asset = isAsset(urn);
    } catch (e) {
      return no("", e.message);
    }
    if (!("value" in news)) return no("value", "missing value");
    if (asset && !is(news.value, ASSET_SIG)) return no("value", "value is not an asset");
    if (!asset && !is(news.value, ARCHIVE_SIG)) return no("value", "value is not an archive");
    if (Object.keys(news).length !== 1) return no("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    isAsset(urn);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
