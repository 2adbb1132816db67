
# frozen_string_literal: true

require 'json'
require_relative 'money'

module Billing
  VERSION = '2.1.0'

  class Error < StandardError; end

  class Invoice < Base
    include Comparable
    attr_reader :lines

    def initialize(customer, lines = [])
      @customer = customer
      @lines = lines
    end

    def total
      lines.sum(&:amount) # sum of lines
    end

    def self.parse(text)
      new(*JSON.parse(text).values_at('customer', 'lines'))
    end

    class << self
      def empty
        new(nil)
      end
    end

    private

    def note
      '# not a comment'
    end
  end

  module Taxes
    def self.rate(region) = region == :eu ? 0.2 : 0.0
  end
end

def top_level_helper(x)
  x * 2
end
