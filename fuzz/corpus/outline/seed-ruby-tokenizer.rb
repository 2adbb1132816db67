
# frozen_string_literal: true

# Splits source text into tokens; what callers may call is marked as Ruby marks it.
class Tokenizer
  attr_reader :source, :position
  attr_accessor :strict

  def initialize(source, strict: false)
    @source = source
    @position = 0
    @strict = strict
  end

  def each_token
    return enum_for(:each_token) unless block_given?

    yield next_token until eof?
  end

  private_class_method def self.build(text)
    new(text.freeze)
  end

  private def eof?
    position >= source.length
  end

  protected

  def rest
    source[position..]
  end

  private

  attr_writer :position

  def next_token
    match = rest.match(/\A\s*(\w+|\S)/)
    self.position += match[0].length
    match[1]
  end

  def self.keywords
    %w[def end class module]
  end

  public

  def reset!
    self.position = 0
  end
end

# A module's functions, callable on it.
module Lexing
  module_function

  def tokenize(text)
    Tokenizer.new(text).each_token.to_a
  end
end

# Methods handed to a call as they are defined.
class CachedTokenizer < Tokenizer
  memoize def keywords_seen
    each_token.select { |token| Tokenizer.keywords.include?(token) }
  end

  helper_method(def last_token
    each_token.to_a.last
  end)
end
