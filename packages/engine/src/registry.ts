import type { Feature } from './feature.js';

/** Features by id, by route and by tool name. A feature is mounted everywhere by registering it once. */
export class FeatureRegistry {
  readonly #byId = new Map<string, Feature<any, any>>();
  readonly #byRoute = new Map<string, Feature<any, any>>();
  readonly #byTool = new Map<string, Feature<any, any>>();

  constructor(features: Iterable<Feature<any, any>> = []) {
    for (const feature of features) this.register(feature);
  }

  register(feature: Feature<any, any>): this {
    if (this.#byId.has(feature.id)) throw new Error(`A feature with id "${feature.id}" is already registered`);
    for (const route of feature.routes) {
      if (this.#byRoute.has(route)) throw new Error(`Route ${route} is already served by "${this.#byRoute.get(route)!.id}"`);
    }
    if (feature.tool && this.#byTool.has(feature.tool.name)) throw new Error(`Tool "${feature.tool.name}" is already registered`);
    this.#byId.set(feature.id, feature);
    for (const route of feature.routes) this.#byRoute.set(route, feature);
    if (feature.tool) this.#byTool.set(feature.tool.name, feature);
    return this;
  }

  get(id: string): Feature<any, any> | undefined {
    return this.#byId.get(id);
  }

  byRoute(path: string): Feature<any, any> | undefined {
    return this.#byRoute.get(path);
  }

  byTool(name: string): Feature<any, any> | undefined {
    return this.#byTool.get(name);
  }

  list(): Feature<any, any>[] {
    return [...this.#byId.values()];
  }

  routes(): string[] {
    return [...this.#byRoute.keys()];
  }
}
