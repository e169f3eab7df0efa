// SPDX-License-Identifier: Apache-2.0
/// Namespace for image processors; each lives in its own `ImageProcessors+Name.swift` file.
public enum ImageProcessors {}
