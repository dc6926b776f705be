// Empty at first: the import test appends the code `import` prints.
export {};
