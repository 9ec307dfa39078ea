// Exhaustiveness for switches over the bindings' unions: `default: assertNever(x)` makes a new
// variant a type error (and, should one arrive at run time anyway, a loud one).

/** Never returns; `value` has type `never` where every case of its union was handled. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
