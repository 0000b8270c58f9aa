// Typed handles over a Client: the runtime of `typed(client)`. The types come from the
// declarations `vmctl gen typescript` writes (see typed.d.ts and the README's "Typed clients");
// at run time a handle only remembers its instance id and forwards each call.

/** Wraps `client` so calls are checked against generated declarations: `typed<ViewModels>(client)`. */
export function typed(client) {
  return new TypedClient(client);
}

class TypedClient {
  constructor(client) {
    this.client = client;
  }

  /** vm.create, then a handle on the new instance (its subscription too, with `subscribe`). */
  async create(type, options = {}) {
    const created = await this.client.create(type, options);
    return new TypedInstance(this.client, created.instance, created.type, created.subscription);
  }

  /** A handle on an instance that exists already. */
  instance(type, id) {
    return new TypedInstance(this.client, id, type, undefined);
  }
}

class TypedInstance {
  constructor(client, instance, type, subscription) {
    this.client = client;
    this.instance = instance;
    this.type = type;
    this.subscription = subscription;
  }

  send(input, value, options) { return this.client.send(this.instance, input, value, options); }

  execute(action, value, options) { return this.client.execute(this.instance, action, value, options); }

  get(output) { return this.client.get(this.instance, output); }

  subscribe(options) { return this.client.subscribe(this.instance, options); }

  destroy() { return this.client.destroy(this.instance); }
}
