// TypeScript on @pulumi/random and @pulumi/command.
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import * as command from "@pulumi/command";

const word: random.RandomPet = new random.RandomPet("word", { length: 1 });
const echo = new command.local.Command("echo", {
    create: pulumi.interpolate`echo made-${word.id}`,
});
export const wordId: pulumi.Output<string> = word.id;
export const echoed: pulumi.Output<string> = echo.stdout;
