
# A model caught mid-edit: the `if` in `settled?` has lost its `end`, so the methods after it
# parse as methods nested in `settled?`, and the class's `end` closes that method instead.
require "bigdecimal"

module Ledger
  class Invoice
    attr_reader :number, :lines

    def initialize(number, lines = [])
      @number = number
      @lines = lines
    end

    def total
      lines.sum(BigDecimal("0"), &:amount)
    end

    def settled?
      if payments.empty?
        false
      else
        payments.sum(&:amount) >= total
    end

    def refund(amount)
      raise ArgumentError, "amount must be positive" unless amount.positive?

      payments << Payment.new(-amount)
    end

    def self.from_rows(number, rows)
      new(number, rows.map { |row| Line.new(row) })
    end

    private

    def payments
      @payments ||= []
    end
  end

  class Line
    attr_reader :amount

    def initialize(row)
      @amount = BigDecimal(row.fetch(:amount))
    end
  end
end
