declare module 'ml-cart' {
  export class DecisionTreeClassifier {
    constructor(options?: { gainFunction?: 'gini'; maxDepth?: number; minNumSamples?: number; gainThreshold?: number });
    train(x: number[][], y: number[]): void;
    predict(x: number[][]): number[];
    toJSON(): unknown;
    static load(model: unknown): DecisionTreeClassifier;
  }
}
