// N (env COUNT) RandomString resources, served by the engine's built-in
// random provider (bench/nodejs-random/run.sh).
import * as random from "@pulumi/random";

const n = Number(process.env.COUNT || "1000");
for (let i = 0; i < n; i++) {
  new random.RandomString(`s-${i}`, { length: 8, special: false });
}
export const count = n;
